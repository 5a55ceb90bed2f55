// The line of run starts waiting for a slot, in a fair order: round-robin across network
// addresses, and within an address across its pages, each page's own starts first come first
// served. A page that sends many starts gets one turn per round like any other, so it cannot
// fill the front of the line; an address with many pages gets one turn per round beside an
// address with one. The order is a pure function of the places and of who was served last.

/** One start waiting in line. */
export interface Place {
  requestId: string;
  /** The page it came from (kept across a reconnect). */
  pageId: string;
  /** The network address of that page. */
  address: string;
}

export class RunQueue<T extends Place> {
  /** In arrival order. */
  private readonly places: T[] = [];
  private lastAddress: string | undefined;
  /** Each address's page served last. */
  private readonly lastPage = new Map<string, string>();

  get length(): number {
    return this.places.length;
  }

  /** Every place, in arrival order. */
  get all(): readonly T[] {
    return this.places;
  }

  add(place: T): void {
    this.places.push(place);
  }

  /** Takes a place out of the line (cancelled, lapsed); false when it was not in it. */
  remove(place: T): boolean {
    const at = this.places.indexOf(place);
    if (at < 0) return false;
    this.places.splice(at, 1);
    return true;
  }

  /** The line in the order it will be served: round-robin across addresses, then across each address's pages. */
  order(): T[] {
    const byAddress = groupBy(this.places, (p) => p.address);
    const addresses = rotateAfter([...byAddress.keys()], this.lastAddress);
    return interleave(
      addresses.map((address) => {
        const byPage = groupBy(byAddress.get(address)!, (p) => p.pageId);
        return interleave(rotateAfter([...byPage.keys()], this.lastPage.get(address)).map((page) => byPage.get(page)!));
      }),
    );
  }

  /** Takes out the first place in order that `ready` allows, and turns the round-robin past it. */
  takeNext(ready: (place: T) => boolean): T | undefined {
    const next = this.order().find(ready);
    if (!next) return undefined;
    this.remove(next);
    this.lastAddress = next.address;
    this.lastPage.set(next.address, next.pageId);
    if (!this.places.some((p) => p.address === next.address)) this.lastPage.delete(next.address);
    return next;
  }
}

/** Items grouped by key, the keys in order of their first item. */
function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** The keys starting after `last` (the one served last goes to the back); as they are when `last` is not among them. */
export function rotateAfter(keys: string[], last: string | undefined): string[] {
  const at = last === undefined ? -1 : keys.indexOf(last);
  return at < 0 ? keys : [...keys.slice(at + 1), ...keys.slice(0, at + 1)];
}

/** One from each list in turn, round after round, until all are used: [[a1, a2], [b1]] → [a1, b1, a2]. */
export function interleave<T>(lists: T[][]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let round = 0; round < longest; round++) for (const list of lists) if (round < list.length) out.push(list[round]!);
  return out;
}
