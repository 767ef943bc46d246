// An endpoint's HTTP/1.1 connection for webhook POSTs (docs/events.md), in place of node:http's
// agent: the POSTs queued in one turn of the event loop leave in one socket write, pipelined
// (RFC 9112 §9.3.2) on a connection known to persist, and their answers are read in order. A POST
// costs its write's share and the parsing of its answer, not a ClientRequest and a syscall of its own.
import { isIP, connect as netConnect, type Socket } from 'node:net';
import { checkServerIdentity, connect as tlsConnect } from 'node:tls';

/** What came of one request: the answer's status (null when no status line came), why there is no
 *  whole answer (null: the answer was read to its end or to `maxAnswerBytes`), and the time from its
 *  turn at the receiver to its end (0: its turn never came). */
export interface Exchange {
  status: number | null;
  error: string | null;
  durationMs: number;
}

export interface ExchangeLimits {
  /** From the request's turn at the receiver (written, and the answer before it ended) to the end
   *  of its answer. */
  timeoutMs: number;
  /** The longest the request waits for its turn; past that it fails, "not sent" when it was never
   *  written. */
  sendWithinMs: number;
}

/** Requests written and not yet answered on one connection (a claim's worth, jobs/queue.ts). */
export const MAX_IN_FLIGHT = 20;
/** An answer's status line and header section, or a chunked body's trailer section, at most. */
export const MAX_HEAD_BYTES = 64 * 1024;
/** After an endpoint closed a connection on requests written to it, its requests go one at a time
 *  for this long: a receiver that does not keep a connection open is not sent batches it drops. */
export const PIPELINE_PAUSE_MS = 60_000;

/** The request's header names and values must not break its framing. */
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const STATUS_LINE = /^HTTP\/1\.([01]) ([0-9]{3})(?: .*)?$/;
const CHUNK_SIZE = /^([0-9A-Fa-f]{1,12})[\t ]*(?:;.*)?$/;

interface Request {
  /** Head and body as written. */
  bytes: string;
  limits: ExchangeLimits;
  resolve: (exchange: Exchange) => void;
  settled: boolean;
  /** Times written: a request written but left unanswered by a connection's end is written once
   *  more on a new connection (RFC 9112 §9.3.2; a delivery is safe to repeat, receivers dedupe on
   *  `webhook-id`). */
  writes: number;
  /** performance.now() when its turn at the receiver came. */
  turnAt: number | null;
  /** Its answer's status, once the status line came. */
  status: number | null;
  /** Until its turn comes, its sendWithinMs. */
  timer: NodeJS.Timeout | null;
}

type ReadState = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'close';

/** One endpoint origin and checked address: its queue of unwritten requests and its connection. */
export class Http1Origin {
  private readonly queue: Request[] = [];
  private connection: Connection | null = null;
  private flushScheduled = false;
  private pipelineAfter = 0;
  private closed = false;
  private readonly hostHeader: string;

  constructor(
    readonly url: URL,
    readonly address: { address: string; family: number },
    /** Of an answer's body, read at most (the rest is not: the connection ends). */
    readonly maxAnswerBytes: number,
  ) {
    this.hostHeader = url.host;
  }

  /** POSTs `body` to `path`; settles, never rejects (a header that would break the request's
   *  framing throws at once). */
  post(path: string, headers: Record<string, string>, body: string, limits: ExchangeLimits): Promise<Exchange> {
    let head = `POST ${path} HTTP/1.1\r\nhost: ${this.hostHeader}\r\n`;
    for (const name in headers) {
      const value = headers[name]!;
      if (!FIELD_NAME.test(name) || !FIELD_VALUE.test(value)) throw new TypeError(`invalid header ${JSON.stringify(name)}`);
      head += `${name}: ${value}\r\n`;
    }
    head += `content-length: ${Buffer.byteLength(body)}\r\n\r\n`;
    return new Promise<Exchange>((resolve) => {
      const request: Request = { bytes: head + body, limits, resolve, settled: false, writes: 0, turnAt: null, status: null, timer: null };
      if (this.closed) return void this.settle(request, null, 'the endpoint connection was closed');
      request.timer = setTimeout(() => this.turnTooLate(request), limits.sendWithinMs);
      this.queue.push(request);
      this.scheduleFlush();
    });
  }

  /** Ends the connection and every request not yet answered. */
  close(): void {
    this.closed = true;
    for (const request of this.queue.splice(0)) this.settle(request, null, 'the endpoint connection was closed');
    this.connection?.end('the endpoint connection was closed', false);
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // The requests queued in this turn of the event loop leave together.
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  /** Writes what may be written now: on a new connection, or one whose answers do not say it
   *  persists, or while pipelining is paused, one request at a time; else up to MAX_IN_FLIGHT. */
  private flush(): void {
    if (this.closed || this.queue.length === 0) return;
    let connection = this.connection;
    if (!connection || connection.ended) connection = this.connection = new Connection(this);
    const inFlight = connection.inFlight.length;
    const pipelining = connection.pipelinable && performance.now() >= this.pipelineAfter;
    const room = pipelining ? MAX_IN_FLIGHT - inFlight : inFlight === 0 ? 1 : 0;
    if (room <= 0) return;
    const batch = this.queue.splice(0, room);
    connection.write(batch);
  }

  /** Called by a connection that can take more. */
  ready(connection: Connection): void {
    if (connection === this.connection && this.queue.length > 0) this.scheduleFlush();
  }

  /** A connection ended with `unanswered` written to it: those written once go again first, in
   *  their order, on a new connection; the others fail with `error`. `byPeer`: the endpoint closed
   *  it on requests it was written (pipelining pauses). */
  ended(connection: Connection, unanswered: Request[], error: string, byPeer: boolean): void {
    if (connection === this.connection) this.connection = null;
    if (byPeer && unanswered.length > 0) this.pipelineAfter = performance.now() + PIPELINE_PAUSE_MS;
    const again: Request[] = [];
    for (const request of unanswered) {
      if (request.settled) continue;
      if (request.writes < 2 && !this.closed) again.push(request);
      else this.settle(request, request.status, error);
    }
    this.queue.unshift(...again);
    if (this.queue.length > 0) this.scheduleFlush();
  }

  /** Its turn at the receiver came: its wait is over, its timeout starts (the connection's). */
  turn(request: Request): void {
    if (request.settled) return;
    request.turnAt = performance.now();
    if (request.timer) clearTimeout(request.timer);
    request.timer = null;
  }

  /** sendWithinMs passed before its turn came: out of the queue when still in it, unanswered. */
  private turnTooLate(request: Request): void {
    request.timer = null;
    if (request.settled || request.turnAt !== null) return;
    const queued = this.queue.indexOf(request);
    if (queued >= 0) this.queue.splice(queued, 1);
    const ms = request.limits.sendWithinMs;
    // Written already (and maybe read by the receiver), it stays in its connection's order; its
    // answer, if one comes, is read and set aside.
    this.settle(
      request,
      null,
      request.writes === 0
        ? `not sent: the endpoint's connection stayed busy for ${ms} ms`
        : `no answer: its turn at the endpoint did not come within ${ms} ms`,
    );
  }

  /** The request's outcome, once (what comes later for it is dropped). */
  settle(request: Request, status: number | null, error: string | null): void {
    if (request.settled) return;
    request.settled = true;
    if (request.timer) clearTimeout(request.timer);
    request.timer = null;
    request.resolve({ status, error, durationMs: request.turnAt === null ? 0 : Math.round(performance.now() - request.turnAt) });
  }

  /** A new connection to the checked address. */
  openSocket(): Socket {
    const port = Number(this.url.port) || (this.url.protocol === 'https:' ? 443 : 80);
    const { address, family } = this.address;
    // The checked address, whatever the name resolves to now (no DNS rebinding between check and use).
    if (this.url.protocol !== 'https:') return netConnect({ host: address, port, family });
    const hostname = this.url.hostname.replace(/^\[|\]$/g, '');
    return tlsConnect({
      host: address,
      port,
      // SNI only for a name (RFC 6066 §3); the certificate is checked against the URL's host.
      ...(isIP(hostname) ? {} : { servername: hostname }),
      checkServerIdentity: (_host, cert) => checkServerIdentity(hostname, cert),
      ALPNProtocols: ['http/1.1'],
    });
  }
}

/** One connection: the requests written to it, answered in order, and the reading of the answers. */
class Connection {
  readonly inFlight: Request[] = [];
  ended = false;
  /** An answer said the connection persists (HTTP/1.1 without `Connection: close`): requests may
   *  be pipelined on it. */
  pipelinable = false;
  private readonly socket: Socket;
  private state: ReadState = 'head';
  /** Bytes of an unfinished line-oriented part (head, chunk size, trailers) kept across reads. */
  private carry: Buffer | null = null;
  /** Where the search for the head's or trailers' empty line resumes in `carry`. */
  private scanFrom = 0;
  private remaining = 0;
  private bodyRead = 0;
  /** The answer being read closes the connection after it. */
  private closeAfter = false;
  private error: string | null = null;
  /** The first request's timeout. */
  private turnTimer: NodeJS.Timeout | null = null;

  constructor(private readonly origin: Http1Origin) {
    this.socket = origin.openSocket();
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('end', () => this.eof());
    this.socket.on('error', (e) => {
      this.error ??= e.message || 'connection failed';
    });
    this.socket.on('close', () => this.end(this.error ?? 'the connection closed before the answer', true));
  }

  write(batch: Request[]): void {
    let bytes = '';
    for (const request of batch) {
      request.writes++;
      bytes += request.bytes;
      this.inFlight.push(request);
    }
    this.socket.ref();
    this.socket.write(bytes);
    if (this.inFlight.length === batch.length) this.nextTurn();
  }

  /** The first request in flight has its turn at the receiver. */
  private nextTurn(): void {
    const head = this.inFlight[0];
    if (!head) {
      // An idle connection does not keep the process alive (as node:http's agent's free sockets).
      this.socket.unref();
      return;
    }
    // One set aside (sendWithinMs) still has its answer read, and dropped.
    this.origin.turn(head);
    this.turnTimer = setTimeout(() => {
      // An answer cannot be skipped on its connection: the connection ends with it, and the ones
      // behind go again on a new one.
      this.origin.settle(head, head.status, `no answer within ${head.limits.timeoutMs} ms`);
      this.end(`the connection ended: an answer before it did not come within ${head.limits.timeoutMs} ms`, false);
    }, head.limits.timeoutMs);
  }

  /** Ends the connection; the requests in flight are the origin's to write again or fail (the
   *  first, if its turn came, fails: it may have been read and acted on). */
  end(error: string, byPeer: boolean): void {
    if (this.ended) return;
    this.ended = true;
    if (this.turnTimer) clearTimeout(this.turnTimer);
    this.socket.destroy();
    const unanswered = this.inFlight.splice(0);
    const first = unanswered[0];
    if (first && first.turnAt !== null && !first.settled) this.origin.settle(first, first.status, error);
    this.origin.ended(this, unanswered, error, byPeer);
  }

  private eof(): void {
    if (this.state === 'close' && this.inFlight.length > 0) this.answered();
    this.end(this.error ?? 'the connection closed before the answer', true);
  }

  /** A malformed answer: the connection ends, its request fails. */
  private malformed(what: string): void {
    this.error = `malformed answer: ${what}`;
    this.end(this.error, true);
  }

  private read(chunk: Buffer): void {
    let data = chunk;
    if (this.carry) {
      data = Buffer.concat([this.carry, chunk]);
      this.carry = null;
    }
    let at = 0;
    while (at < data.length && !this.ended) {
      if (this.inFlight.length === 0) return void this.malformed('bytes with no request awaiting an answer');
      switch (this.state) {
        case 'head':
        case 'trailers': {
          const end = sectionEnd(data, at + this.scanFrom);
          if (end < 0) {
            if (data.length - at > MAX_HEAD_BYTES) return void this.malformed(`header section over ${MAX_HEAD_BYTES} bytes`);
            this.scanFrom = lastLineStart(data, at + this.scanFrom) - at;
            this.carry = data.subarray(at);
            return;
          }
          this.scanFrom = 0;
          if (end - at > MAX_HEAD_BYTES) return void this.malformed(`header section over ${MAX_HEAD_BYTES} bytes`);
          const section = data.toString('latin1', at, end);
          at = end;
          if (this.state === 'trailers') this.answered();
          else this.head(section);
          break;
        }
        case 'chunk-size':
        case 'chunk-end': {
          const newline = data.indexOf(10, at);
          if (newline < 0) {
            if (data.length - at > MAX_HEAD_BYTES) return void this.malformed('chunk size line too long');
            this.carry = data.subarray(at);
            return;
          }
          const line = data.toString('latin1', at, newline > at && data[newline - 1] === 13 ? newline - 1 : newline);
          at = newline + 1;
          if (this.state === 'chunk-end') {
            if (line !== '') return void this.malformed('chunk not followed by CRLF');
            this.state = 'chunk-size';
            break;
          }
          const size = CHUNK_SIZE.exec(line);
          if (!size) return void this.malformed('bad chunk size');
          this.remaining = Number.parseInt(size[1]!, 16);
          this.state = this.remaining === 0 ? 'trailers' : 'chunk-data';
          break;
        }
        case 'length':
        case 'chunk-data':
        case 'close': {
          const n = this.state === 'close' ? data.length - at : Math.min(this.remaining, data.length - at);
          at += n;
          this.remaining -= n;
          this.bodyRead += n;
          if (this.bodyRead >= this.origin.maxAnswerBytes) {
            // The rest is not read: this answer is the attempt's outcome, the connection ends.
            const first = this.inFlight.shift()!;
            this.origin.settle(first, first.status, null);
            return void this.end('the answer before it was not read to its end', false);
          }
          if (this.remaining > 0 || this.state === 'close') break;
          if (this.state === 'length') this.answered();
          else this.state = 'chunk-end';
          break;
        }
      }
    }
  }

  /** A status line and header section (RFC 9112 §4, §6.3). */
  private head(section: string): void {
    const lines = section.split('\n');
    const statusLine = STATUS_LINE.exec(trimCr(lines[0]!));
    if (!statusLine) return void this.malformed('not an HTTP/1.x status line');
    const minor = statusLine[1]!;
    const status = Number(statusLine[2]);
    let contentLength: string | null = null;
    let transferEncoding: string | null = null;
    let connection = '';
    for (let i = 1; i < lines.length; i++) {
      const line = trimCr(lines[i]!);
      if (line === '' || line[0] === ' ' || line[0] === '\t') continue; // the end; obs-fold (§5.2) of a field not read here
      const colon = line.indexOf(':');
      if (colon <= 0) return void this.malformed('a header line without a name');
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-length') contentLength = contentLength === null ? value : `${contentLength},${value}`;
      else if (name === 'transfer-encoding') transferEncoding = transferEncoding === null ? value : `${transferEncoding},${value}`;
      else if (name === 'connection') connection += `,${value.toLowerCase()}`;
    }
    if (status < 200) {
      if (status === 101) return void this.malformed('a protocol switch nobody asked for');
      return; // an interim answer (§9.1 of RFC 9110): the final one follows
    }
    const first = this.inFlight[0]!;
    if (!first.settled) first.status = status;
    const tokens = connection.split(',').map((t) => t.trim());
    const persists = minor === '1' ? !tokens.includes('close') : tokens.includes('keep-alive');
    this.closeAfter = !persists;
    // Pipelined only to a receiver that keeps an HTTP/1.1 connection open.
    this.pipelinable = persists && minor === '1';
    this.bodyRead = 0;
    if (status === 204 || status === 304) return void this.answered();
    if (transferEncoding !== null) {
      // §6.3: chunked last, or the body runs to the connection's close.
      const codings = transferEncoding.split(',').map((c) => c.trim().toLowerCase());
      if (codings[codings.length - 1] === 'chunked') {
        this.state = 'chunk-size';
        if (contentLength !== null) this.closeAfter = true;
      } else this.closeDelimited();
      return;
    }
    if (contentLength !== null) {
      const values = new Set(contentLength.split(',').map((v) => v.trim()));
      const [only] = values;
      if (values.size !== 1 || !/^[0-9]{1,15}$/.test(only!)) return void this.malformed('invalid Content-Length');
      this.remaining = Number(only);
      if (this.remaining === 0) return void this.answered();
      this.state = 'length';
      return;
    }
    this.closeDelimited();
  }

  private closeDelimited(): void {
    this.state = 'close';
    this.closeAfter = true;
    this.pipelinable = false;
  }

  /** The first request's answer ended. */
  private answered(): void {
    const first = this.inFlight.shift()!;
    this.origin.settle(first, first.status, null);
    if (this.turnTimer) clearTimeout(this.turnTimer);
    this.turnTimer = null;
    this.state = 'head';
    if (this.closeAfter) return void this.end('the connection closed before the answer', true);
    this.nextTurn();
    this.origin.ready(this);
  }
}

const trimCr = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line);

/** The index just past the empty line ending a header or trailer section that starts at or before
 *  `from` (a line ends in CRLF or a bare LF, RFC 9112 §2.2), or -1. `from` is a line's start. */
function sectionEnd(data: Buffer, from: number): number {
  let lineStart = from;
  for (;;) {
    const newline = data.indexOf(10, lineStart);
    if (newline < 0) return -1;
    if (newline === lineStart || (newline === lineStart + 1 && data[lineStart] === 13)) return newline + 1;
    lineStart = newline + 1;
  }
}

/** The start of the last (unfinished) line at or after `from`. */
function lastLineStart(data: Buffer, from: number): number {
  const newline = data.lastIndexOf(10);
  return newline >= from ? newline + 1 : from;
}
