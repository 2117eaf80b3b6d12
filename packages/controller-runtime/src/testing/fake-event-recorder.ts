/** An in-memory EventRecorder for unit tests. */
import type { EventContent } from '../events/event-recorder.ts';
import type { EventReporter, ObjectReference } from '../events/event-types.ts';

/** One recorded Event. */
export interface RecordedFakeEvent extends EventContent {
  readonly object: ObjectReference;
}

/** Records Events in order instead of writing them (client-go's `record.FakeRecorder`). */
export class FakeEventRecorder implements EventReporter {
  readonly events: RecordedFakeEvent[] = [];

  normal(object: ObjectReference, reason: string, message: string): void {
    this.event(object, { type: 'Normal', reason, message });
  }

  warning(object: ObjectReference, reason: string, message: string): void {
    this.event(object, { type: 'Warning', reason, message });
  }

  event(object: ObjectReference, content: EventContent): void {
    this.events.push({ object, ...content });
  }

  /** The reasons of the recorded Events, in order: `['SuccessfulCreate', 'FailedCreate']`. */
  reasons(): string[] {
    return this.events.map((event) => event.reason);
  }
}
