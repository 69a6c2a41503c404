//===- Lazy.h - Recorded eager operations, submitted when needed -*- C++
//-*-===//
//
// With lazy execution on (sluice/_lazy.py), eager operations are recorded
// into a pending graph per queue instead of being submitted; their results
// are arrays over "lazy" buffers (Buffer::lazyId) whose memory does not
// exist yet. Python compiles and submits a graph as one fused program when
// a value is needed. The extension decides when that is: before anything
// touches a lazy buffer (a task, a wait, an export), before anything writes
// a buffer a recorded operation reads (so recorded reads see the old
// contents), and before a queue is waited for. It then calls the flush hook
// Python installed, which submits every pending graph.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_PYTHON_LAZY_H
#define SLUICE_PYTHON_LAZY_H

#include "Array.h"

#include <nanobind/nanobind.h>

#include <string>
#include <utility>
#include <vector>

namespace sluice::py {

/// Submits the pending graphs if `buffer` is lazy, or if it is written and
/// a recorded operation reads it. Call before a task uses the buffer.
void lazyBeforeUse(Buffer &buffer, bool write);
/// Submits every pending graph (before a queue or the process waits).
/// `wanted`: the lazy id of the buffer that is needed (0: all of them).
void lazyFlushAll(const char *reason, uint64_t wanted = 0);

/// Binds lazy_set_hook, lazy_pending, lazy_array, lazy_mark_read,
/// LazyToken and ArrayCore._lazy_id.
void bindLazy(nanobind::module_ &m, nanobind::class_<ArrayCore> &c);

/// The buffer a call fills for a result that has a lazy target (a
/// LazyToken), or null.
std::shared_ptr<Buffer> lazyTarget(nanobind::handle token);
/// Whether `token` is a LazyToken not yet submitted, on (queue, kind).
bool lazyTargetFits(nanobind::handle token, QueueState *queue,
                    SluiceUsmKind kind);

/// A new array whose memory a recorded operation will produce, and its
/// LazyToken (as lazy_array makes them).
std::pair<nanobind::object, nanobind::object>
newLazyResult(QueueState *queue, SluiceUsmKind kind, int dtype,
              const std::vector<int64_t> &shape);
/// The same without a token: the array, and its buffer in `buffer` (the
/// tape keeps the buffer and makes a token only when one is needed,
/// lazyBufferToken).
nanobind::object newLazyArray(QueueState *queue, SluiceUsmKind kind, int dtype,
                              const std::vector<int64_t> &shape,
                              std::shared_ptr<Buffer> &buffer);
/// A LazyToken of a buffer newLazyArray made (`id`: its lazy id then).
nanobind::object lazyBufferToken(const std::shared_ptr<Buffer> &buffer,
                                 uint64_t id);
/// The lazy id the next lazy result will get.
uint64_t lazyNextId();
/// lazyTokenArray and lazyTokenFail on the buffer itself.
nanobind::object lazyBufferArray(const std::shared_ptr<Buffer> &buffer,
                                 int dtype, const std::vector<int64_t> &shape);
void lazyBufferFail(Buffer &buffer, const std::string &message,
                    SluiceStatus status);
/// Whether Python's recorder holds a pending graph.
bool lazyGraphsPending();
/// Whether an array other than the token holds the token's buffer.
bool lazyTokenLive(nanobind::handle token);
/// The token's lazy id.
uint64_t lazyTokenId(nanobind::handle token);
/// An array over the token's buffer once its operation was submitted.
nanobind::object lazyTokenArray(nanobind::handle token, int dtype,
                                const std::vector<int64_t> &shape);
/// Gives the token's buffer a failed producer with this message and
/// status; the failure is reported by the next wait of the buffer's
/// queue too, as any failed operation's.
void lazyTokenFail(nanobind::handle token, const std::string &message,
                   SluiceStatus status);
/// Counts a recorded operation reading `buffer`'s memory (+1) or one
/// submitted (-1).
void lazyMarkRead(Buffer &buffer, int delta);

/// The user's source line that is recording an operation now: the
/// innermost Python frame outside the sluice package, as a small id (0:
/// unknown). Cheap (a frame walk and a hash lookup); the text is made once
/// per source point. Call with the GIL held.
uint32_t lazyCallerLocation();
/// " (recorded lazily at FILE:LINE, ...)" for these ids (distinct ones,
/// the first few), or "" when none is known. Any thread.
std::string lazyLocationText(const std::vector<uint32_t> &ids);

} // namespace sluice::py

#endif // SLUICE_PYTHON_LAZY_H
