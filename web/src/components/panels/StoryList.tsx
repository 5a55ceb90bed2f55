// What happened, in plain words, from the run's log and what the stores held.
import { memo } from 'react';
import type { IconName } from '../../model/icons.js';
import { deriveStory, type StoryTone } from '../../model/story.js';
import { Icon } from '../icons/Icon.js';
import type { EventLog } from '../../model/memo.js';

const toneIcon = { damage: 'cross', hazard: 'warning', safe: 'check', fact: 'dot' } as const satisfies Record<StoryTone, IconName>;

export const StoryList = memo(function StoryList({ events }: { events: EventLog }) {
  const story = deriveStory(events);
  if (story.length === 0) return null;
  return (
    <div className="story">
      <h3 id="story-title">What happened</h3>
      <ul aria-labelledby="story-title">
        {story.map((line) => (
          <li key={line.id} className={line.tone}>
            <span className="tone" aria-hidden="true">
              <Icon name={toneIcon[line.tone]} />
            </span>{' '}
            {line.text}
          </li>
        ))}
      </ul>
    </div>
  );
});
