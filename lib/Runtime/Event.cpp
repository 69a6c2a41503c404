//===- Event.cpp - Event helpers ------------------------------------------===//
#include "sluice/Runtime/Event.h"

namespace sluice::rt {

void appendPending(const EventList &events, EventList &out) {
  for (const Ref<Event> &event : events)
    if (event && !event->isFinished())
      out.push_back(event);
}

} // namespace sluice::rt
