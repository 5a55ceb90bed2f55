import { describe, expect, it } from 'vitest';
import { readSetup } from '../model/urlState.js';
import { embedSnippet, embedUrl } from './embedSnippet.js';

describe('the embed snippet', () => {
  it('embeds the recording and the moment on screen, not the page’s look', () => {
    const setup = {
      params: {},
      replay: 'fencing-lease-only.json',
      scenario: 'fencing',
      variant: 'lease-only',
      t: 1830,
      event: 7,
      presenter: true,
    };
    const url = embedUrl('https://racelab.example/site/?presenter=1#x', setup);
    expect(url).toBe(
      'https://racelab.example/site/?embed=1&replay=fencing-lease-only.json&scenario=fencing&variant=lease-only&t=1830&event=7',
    );
    expect(readSetup(new URL(url).search)).toMatchObject({ embed: true, replay: 'fencing-lease-only.json', t: 1830, event: 7 });
    expect(readSetup(new URL(url).search).presenter).toBeUndefined();
  });

  it('names the host origin it will take commands from, and a live run by id', () => {
    const url = embedUrl(
      'http://127.0.0.1:7070/',
      { params: { workers: '4' }, run: 'ab12', scenario: 'duplicate-job', variant: 'no-lock' },
      'https://blog.example',
    );
    expect(readSetup(new URL(url).search)).toMatchObject({
      run: 'ab12',
      params: { workers: '4' },
      origin: 'https://blog.example',
      embed: true,
    });
  });

  it('writes an iframe whose attributes cannot be broken out of', () => {
    const html = embedSnippet({
      pageUrl: 'https://racelab.example/',
      setup: { params: {}, replay: 'a.json' },
      title: 'x" onload="alert(1)',
      width: 560,
      height: 315,
    });
    expect(html).toBe(
      '<iframe src="https://racelab.example/?embed=1&amp;replay=a.json" width="560" height="315" title="racelab: x&quot; onload=&quot;alert(1)" style="border:0" loading="lazy"></iframe>',
    );
  });
});
