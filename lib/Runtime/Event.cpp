//===- Event.cpp - Event helpers ------------------------------------------===//
#include "sluice/Runtime/Event.h"

namespace sluice::rt {

void appendPending(const EventList &events, EventList &out) {
  for (const Ref<Event> &event : events) {
    if (!event)
      continue;
    // Lists are short and often name one task twice (a queue's last task
    // that also used the memory): ask about each once.
    bool seen = false;
    for (const Ref<Event> &o : out)
      seen = seen || o.get() == event.get();
    if (!seen && !event->isFinished())
      out.push_back(event);
  }
}

} // namespace sluice::rt
