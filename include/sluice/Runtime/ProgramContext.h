//===- ProgramContext.h - What backends know of the running program -------===//
//
// A compiled program's entry point runs between sluiceProgramBegin and
// sluiceProgramEnd, and End waits for every queue the program used unless
// programs run asynchronously (sluiceProgramSetAsynchronous). Backends may
// use this: work submitted from inside such an entry is waited for at its
// end anyway, so the host backend runs it on the entry's own thread when
// its queue is idle instead of handing it to the queue's thread.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_RUNTIME_PROGRAMCONTEXT_H
#define SLUICE_RUNTIME_PROGRAMCONTEXT_H

namespace sluice::rt::program {

/// Whether the calling thread is inside a program entry whose End will
/// wait for its queues.
bool insideWaitingEntry();

} // namespace sluice::rt::program

#endif // SLUICE_RUNTIME_PROGRAMCONTEXT_H
