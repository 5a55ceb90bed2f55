// One page's WebSocket: every frame checked in order (the rate, the size, binary or invalid
// UTF-8, the shared schema) and answered with an error when it fails, then each command
// handled: start a run (within the page's and its address's share; in line when every slot is
// taken, queueDesk.ts), leave the line or take a place in it again after a reconnect,
// subscribe to a run, cancel or fault one the page controls. The runs a page streams go with
// it when it closes; its places in line wait a while for it to come back.
import { randomBytes } from 'node:crypto';
import type { RawData, WebSocket } from 'ws';
import {
  EXERCISE_VARIANT_ID,
  MAX_EVENTS_PER_MESSAGE,
  parseClientMessage,
  type ServerMessage,
  type ValidClientMessage,
} from '@racelab/shared';
import { mayBeRegistered } from '../debris/lostRuns.js';
import type { ExerciseService } from '../exercises/exerciseService.js';
import { EXERCISES_OFF } from '../exercises/policy.js';
import type { OwnCode } from '../runs/ownCode.js';
import type { Playground, Started } from '../runs/playground.js';
import type { Run } from '../runs/run.js';
import { sendBounded } from './boundedSend.js';
import { EventBatcher } from './eventBatcher.js';
import { BUSY_RETRY_AFTER_MS, TOO_MANY_MESSAGES, type SocketLimits } from './limits.js';
import type { QueueDesk, QueueOwner, Waiting } from './queueDesk.js';
import type { RunDirectory } from './runDirectory.js';
import { TokenBucket } from './tokenBucket.js';
import { pageSchedule } from '../explore/pageSchedule.js';

/** What a page's connection needs of the socket server. */
export interface PageServer {
  readonly playground: Playground;
  readonly directory: RunDirectory;
  /** The line of starts waiting for a slot. */
  readonly desk: QueueDesk;
  readonly limits: SocketLimits;
  /** True once the server refuses new runs. */
  readonly closing: boolean;
  /** Runs started from a network address that are still going. */
  runsOf(address: string): string[];
  /** Counts a run against the address it was started from (`going`: the address's runs before it). */
  startedFrom(address: string, going: string[], runId: string): void;
  /** The server's exercises: a run of edited code goes through them; none runs without. */
  readonly exercises?: ExerciseService;
}

type Message<T extends ValidClientMessage['type']> = Extract<ValidClientMessage, { type: T }>;

/** Most questions about runs this server does not hold that one page may have open at once (each may wait seconds for a lease). */
const MAX_OPEN_QUESTIONS = 4;

const utf8 = new TextDecoder('utf-8', { fatal: true });

export class PageConnection implements QueueOwner {
  /** This page among the line's pages (runQueue.ts): a page back after a reconnect takes its old one. */
  private pageId = randomBytes(8).toString('hex');
  /** The runs this page started or resumed, with the unsubscribe of each stream. */
  private readonly streams = new Map<string, () => void>();
  /** Runs this page may stall, kill and cancel: the ones it started, or holds the key of. */
  private readonly controlled = new Set<string>();
  private readonly bucket: TokenBucket;
  /** Events go out in batches (see EventBatcher); any other message first sends the events waiting, so that nothing overtakes them. */
  private readonly batcher: EventBatcher;
  /** Questions about runs this server does not hold, still open. */
  private questions = 0;

  constructor(
    private readonly socket: WebSocket,
    private readonly address: string,
    private readonly server: PageServer,
  ) {
    const limits = server.limits;
    this.bucket = new TokenBucket(limits.messagesPerSecond, limits.messageBurst);
    this.batcher = new EventBatcher((runId, events) => {
      for (let i = 0; i < events.length; i += MAX_EVENTS_PER_MESSAGE) {
        const batch = events.slice(i, i + MAX_EVENTS_PER_MESSAGE);
        const message: ServerMessage =
          batch.length === 1 ? { type: 'run-event', runId, event: batch[0]! } : { type: 'run-events', runId, events: batch };
        sendBounded(socket, message, limits.maxBufferedBytes);
      }
    });
    this.send({ type: 'hello', catalog: server.playground.catalog.manifests });
    socket.on('message', (data: RawData, isBinary: boolean) => this.receive(data, isBinary));
    // A page that goes away takes its runs with it, unless it comes back in time.
    socket.on('close', () => this.closed());
    socket.on('error', () => socket.terminate());
  }

  send(message: ServerMessage): void {
    this.batcher.flush();
    sendBounded(this.socket, message, this.server.limits.maxBufferedBytes);
  }

  /** One frame from the page: checked in order, the cheapest first, then handled. */
  private receive(data: RawData, isBinary: boolean): void {
    const limits = this.server.limits;
    // Checked before anything else, so a flood costs next to nothing.
    if (!this.bucket.take()) return this.send({ type: 'error', error: TOO_MANY_MESSAGES });
    const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    if (bytes.length > limits.maxFrameBytes) {
      return this.send({ type: 'error', error: `message too big: ${bytes.length} bytes; the limit is ${limits.maxFrameBytes}` });
    }
    if (isBinary) return this.send({ type: 'error', error: 'binary frames are not accepted; send JSON text' });
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      return this.send({ type: 'error', error: 'message is not valid UTF-8 text' });
    }
    const parsed = parseClientMessage(text);
    if (!parsed.ok) return this.send({ type: 'error', error: parsed.error });
    try {
      this.handle(parsed.message);
    } catch (error) {
      // Never expected; if it happens, this message fails and everything else carries on.
      const text = String(error);
      console.error(`racelab: a message could not be handled: ${this.server.playground.redact?.(text) ?? text}`);
      this.send({ type: 'error', error: 'the server could not handle that message' });
    }
  }

  private handle(message: ValidClientMessage): void {
    switch (message.type) {
      case 'start-run':
        return this.startRun(message);
      case 'subscribe':
        return this.subscribe(message);
      case 'cancel-run':
      case 'fault':
        return this.control(message);
      case 'cancel-queued':
      case 'rejoin-queue':
        return this.queue(message);
    }
  }

  private startRun(message: Message<'start-run'>): void {
    if (message.exercise) return void this.startEditedRun(message, message.exercise.code);
    this.launch(message);
  }

  /** A run of an exercise's edited code, as the variant your-fix: compiled first, its module removed once the run has settled. */
  private async startEditedRun(message: Message<'start-run'>, code: string): Promise<void> {
    const { requestId } = message;
    const exercises = this.server.exercises;
    const edited = exercises ? await exercises.editedRun(message.scenario, code) : { ok: false as const, error: EXERCISES_OFF.why };
    if (!edited.ok) return this.send({ type: 'run-rejected', requestId, error: edited.error });
    // The page went while the code compiled: nobody to run it for.
    const run = this.socket.readyState === this.socket.OPEN ? await this.launchEdited(message, edited.ownCode) : undefined;
    if (run) void run.settled.then(edited.done);
    else await edited.done();
  }

  /** Starts the run a page asked for or puts it in line; the run, or undefined when refused or in line. */
  private launch(message: Message<'start-run'>): Run | undefined {
    const admitted = this.admissible(message);
    if (!admitted) return undefined;
    const { run, going } = admitted;
    if (this.server.desk.mustWait(run.workerCount)) return void this.wait(message, run.workerCount);
    return this.begin(run, message.requestId, going);
  }

  /**
   * An exercise's run does not wait in line (its compiled code is not kept there): it starts
   * now, its connections reserved beside the line, or is answered "busy".
   */
  private async launchEdited(message: Message<'start-run'>, ownCode: OwnCode): Promise<Run | undefined> {
    const { requestId } = message;
    const admitted = this.admissible(message, ownCode);
    if (!admitted) return undefined;
    const busy = this.serverFull(admitted.run);
    if (busy) return void this.send({ type: 'run-rejected', requestId, error: busy, retryAfterMs: BUSY_RETRY_AFTER_MS });
    const release = await this.server.desk.reserveAside(admitted.run.workerCount);
    if (!release) {
      const error = "busy: the database connections this room's servers share are all reserved by runs; try again in a moment";
      return void this.send({ type: 'run-rejected', requestId, error, retryAfterMs: BUSY_RETRY_AFTER_MS });
    }
    if (this.socket.readyState !== this.socket.OPEN) return void release();
    const run = this.begin(admitted.run, requestId, this.server.runsOf(this.address));
    void run.settled.then(release);
    return run;
  }

  /** The run prepared, when the server takes starts and this page and its address have a share left; otherwise the page is told why. */
  private admissible(message: Message<'start-run'>, ownCode?: OwnCode): { run: Run; going: string[] } | undefined {
    const { requestId } = message;
    if (this.server.closing) return void this.send({ type: 'run-rejected', requestId, error: 'the server is stopping' });
    const prepared = this.prepare(message, ownCode);
    if (!prepared.ok) return void this.send({ type: 'run-rejected', requestId, error: prepared.error });
    const going = this.server.runsOf(this.address);
    const busy = this.overShare(going);
    if (busy) return void this.send({ type: 'run-rejected', requestId, error: busy, retryAfterMs: BUSY_RETRY_AFTER_MS });
    return { run: prepared.run, going };
  }

  private prepare(message: Message<'start-run'>, ownCode?: OwnCode): Started {
    const { scenario, params, faults, speed } = message;
    const variant = ownCode ? EXERCISE_VARIANT_ID : message.variant;
    if (message.schedule !== undefined) {
      // A fresh scheduler for each start: a start that waited in line is prepared again.
      const scheduled = pageSchedule(message.schedule, message);
      if (!scheduled.ok) return scheduled;
      return this.server.playground.prepare({ scenario, variant, params, scheduler: scheduled.scheduler, speed: scheduled.speed });
    }
    return this.server.playground.prepare({ scenario, variant, params, faults, speed, ...(ownCode ? { ownCode } : {}) });
  }

  /** Takes a slot for the run: the page controls it, streams it, and the line counts its time. */
  private begin(run: Run, requestId: string, going: string[]): Run {
    // The page that starts a run controls it; the key lets it take control again after a reconnect.
    const controlKey = this.server.directory.add(run);
    this.controlled.add(run.id);
    this.server.startedFrom(this.address, going, run.id);
    this.server.desk.track(run);
    this.send({ type: 'run-accepted', requestId, runId: run.id, controlKey, workers: run.workerIds });
    this.stream(run, -1);
    void run.start();
    return run;
  }

  /** Every slot is taken: the start waits in line (run-queued), unless the line is full ("busy"). */
  private wait(message: Message<'start-run'>, workerCount: number): void {
    const { requestId } = message;
    const desk = this.server.desk;
    if (desk.enqueue(this, { requestId, pageId: this.pageId, address: this.address, message, workerCount })) return;
    const error = `busy: the line is full: ${desk.length} starts wait for a slot, the most this server keeps; try again in a moment`;
    this.send({ type: 'run-rejected', requestId, error, retryAfterMs: BUSY_RETRY_AFTER_MS });
  }

  /** A slot is free for a start of this page that waited in line: its run starts now. */
  admit(place: Waiting): Run | undefined {
    const prepared = this.prepare(place.message);
    if (!prepared.ok) return void this.send({ type: 'run-rejected', requestId: place.requestId, error: prepared.error });
    return this.begin(prepared.run, place.requestId, this.server.runsOf(this.address));
  }

  /** Takes the page id of a place in line it rejoined. */
  adopt(pageId: string): void {
    this.pageId = pageId;
  }

  /** Why this page or its address has no share left (runs going and starts in line), or nothing. */
  private overShare(fromAddress: string[]): string | undefined {
    const { limits, directory, desk } = this.server;
    const mine = [...this.streams.keys()].filter((id) => directory.get(id)?.isSettled === false).length + desk.countOf(this);
    if (mine >= limits.maxRunsPerConnection) {
      return `busy: this page already has ${mine} runs going or in line, the most one page may have; try again when one ends`;
    }
    const fromHere = fromAddress.length + desk.countFrom(this.address);
    if (!limits.isTrustedAddress(this.address) && fromHere >= limits.maxRunsPerAddress) {
      return `busy: the pages of this address already have ${fromHere} runs going or in line, the most one address may have; try again when one ends`;
    }
    return undefined;
  }

  /** Why the server cannot take an exercise's run now (its compiled code does not wait in line), or nothing. */
  private serverFull(run: Run): string | undefined {
    const { limits, directory } = this.server;
    if (directory.active >= limits.maxRunsPerServer) {
      return `busy: the server is running ${directory.active} runs, the most it takes at once; try again in a moment`;
    }
    const workers = directory.workers;
    if (workers + run.workerCount > limits.maxWorkersPerServer) {
      return `busy: the server has ${workers} worker processes going and this run needs ${run.workerCount} more (at most ${limits.maxWorkersPerServer}); try again in a moment`;
    }
    return undefined;
  }

  /** Leaves the line, or takes a place in it again after a reconnect. */
  private queue(message: Message<'cancel-queued' | 'rejoin-queue'>): void {
    const { desk } = this.server;
    const { requestId } = message;
    if (message.type === 'cancel-queued') {
      if (!desk.cancel(this, requestId)) this.send({ type: 'error', error: `no start '${requestId}' of this page waits in line` });
      return;
    }
    if (!desk.rejoin(this, requestId, message.queueKey)) {
      const error = 'the place in line was not kept: the page was away too long, or it had its slot already; press Run again';
      this.send({ type: 'run-rejected', requestId, error });
    }
  }

  private subscribe(message: Message<'subscribe'>): void {
    const run = this.server.directory.get(message.runId);
    if (!run) return this.unheld(message.runId);
    if (this.server.directory.controls(run.id, message.controlKey)) this.controlled.add(run.id);
    this.stream(run, message.afterSeq);
  }

  /**
   * A run this server does not hold: lost with its server (which died while it ran), or
   * unknown (never was, or no longer kept). Asking may wait for a dead server's lease to expire.
   */
  private unheld(runId: string): void {
    if (!mayBeRegistered(runId) || this.questions >= MAX_OPEN_QUESTIONS) return this.send({ type: 'run-unknown', runId });
    this.questions++;
    void this.server.playground
      .whereabouts(runId)
      .catch(() => ({ lost: false as const }))
      .then((where) => {
        this.questions--;
        if (this.socket.readyState !== this.socket.OPEN) return;
        if (!where.lost) return this.send({ type: 'run-unknown', runId });
        this.send({ type: 'run-lost', runId, ...(where.server ? { server: where.server } : {}) });
      });
  }

  /** A cancel or a fault, from the page that controls the run. */
  private control(message: Message<'cancel-run' | 'fault'>): void {
    const run = this.streams.has(message.runId) ? this.server.directory.get(message.runId) : undefined;
    if (!run) return this.send({ type: 'error', error: `no run '${message.runId}' of this page` });
    if (!this.controlled.has(run.id)) {
      return this.send({
        type: 'error',
        error: `this page watches run '${run.id}' but did not start it: only the page that started a run may stall, kill or cancel it`,
      });
    }
    if (message.type === 'cancel-run') return run.cancel('cancelled from the page');
    const slowdown = message.latencyMs === undefined ? undefined : { latencyMs: message.latencyMs, lossPercent: message.lossPercent ?? 0 };
    const error = run.fault(message.workerId, message.action, slowdown);
    if (error) this.send({ type: 'error', error });
  }

  /** Sends the run's events after `afterSeq`, then each one as it comes. */
  private stream(run: Run, afterSeq: number): void {
    if (this.streams.has(run.id)) return;
    for (const event of run.events) if (event.seq > afterSeq) this.batcher.push(run.id, event);
    this.streams.set(
      run.id,
      run.onEvent((event) => this.batcher.push(run.id, event)),
    );
    this.server.directory.watch(run.id);
  }

  private closed(): void {
    this.server.desk.away(this);
    this.batcher.close();
    for (const [runId, unsubscribe] of this.streams) {
      unsubscribe();
      this.server.directory.unwatch(runId);
    }
    this.streams.clear();
  }
}
