// What happened, in plain words, from the run's log and what the stores held.
import { deriveStory } from '../../model/story.js';
import type { EventLog } from '../../model/memo.js';

const toneMark = { damage: '✗', hazard: '⚠', safe: '✓', fact: '·' } as const;

export function StoryList({ events }: { events: EventLog }) {
  const story = deriveStory(events);
  if (story.length === 0) return null;
  return (
    <div className="story">
      <h3 id="story-title">What happened</h3>
      <ul aria-labelledby="story-title">
        {story.map((line) => (
          <li key={line.id} className={line.tone}>
            <span className="tone" aria-hidden="true">
              {toneMark[line.tone]}
            </span>{' '}
            {line.text}
          </li>
        ))}
      </ul>
    </div>
  );
}
