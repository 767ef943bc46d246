// A TCP proxy in front of PostgreSQL that reads the frontend/backend protocol as it passes (the
// PostgreSQL documentation's "Frontend/Backend Protocol": Message Flow, Message Formats) and counts what the clients behind it cost the database:
//   - statements: Execute messages (extended protocol) and simple Query messages, each with its
//     text (a named statement's text comes from its Parse, sent once per connection);
//   - round trips: a message sent while the connection awaits no answer opens one; messages sent
//     behind it before its ReadyForQuery share it (the definition the stores' Tx cost uses,
//     server/store/postgres/tx.ts). A connection awaits an answer from each Sync or Query until the
//     ReadyForQuery that ends it, so pipelined statements count once.
//   - transactions: COMMITs sent.
// The proxy adds a hop, so it is for counting, never for timing. Connections that negotiate TLS are
// passed through uncounted (the bench's own cluster has no TLS).
import { startTcpProxy } from './tcp-proxy.ts';

export interface WireCounts {
  statements: number;
  roundTrips: number;
  commits: number;
  /** Executions by statement text (whitespace collapsed). */
  byText: Record<string, number>;
}

export interface WireCounter {
  /** 127.0.0.1 port to connect to instead of the database's. */
  port: number;
  /** Counts since the last reset. */
  counts(): WireCounts;
  reset(): void;
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

export async function startWireCounter(target: { host: string; port: number }): Promise<WireCounter> {
  let totals: WireCounts = empty();
  const proxy = await startTcpProxy(target, (client, upstream) => {
    const conn = new Connection(() => totals);
    client.on('data', (chunk: Buffer) => {
      conn.fromClient(chunk);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      conn.fromServer(chunk);
      client.write(chunk);
    });
  });
  return {
    port: proxy.port,
    counts: () => ({ ...totals, byText: { ...totals.byText } }),
    reset: () => void (totals = empty()),
    close: proxy.close,
  };
}

function empty(): WireCounts {
  return { statements: 0, roundTrips: 0, commits: 0, byText: {} };
}

/** One proxied connection's protocol state. */
class Connection {
  private fromClientBuf = Buffer.alloc(0);
  private fromServerBuf = Buffer.alloc(0);
  /** Until the startup message: untyped messages (SSLRequest, StartupMessage). */
  private startup = true;
  /** The server's one-byte answer to an SSLRequest or GSSENCRequest is due. */
  private negotiationByte = false;
  /** TLS was accepted: the bytes are opaque from here on. */
  private opaque = false;
  /** Counting starts at the first ReadyForQuery (after authentication). */
  private ready = false;
  /** Syncs and Queries sent that await their ReadyForQuery. */
  private pending = 0;
  /** A message group (Parse … Sync) is being sent: its messages share one round trip. */
  private building = false;
  private readonly statements = new Map<string, string>();
  private portalText = '';

  constructor(private readonly totals: () => WireCounts) {}

  fromClient(chunk: Buffer): void {
    if (this.opaque) return;
    this.fromClientBuf = Buffer.concat([this.fromClientBuf, chunk]);
    for (;;) {
      const b = this.fromClientBuf;
      if (this.startup) {
        if (b.length < 8) return;
        const len = b.readInt32BE(0);
        if (b.length < len) return;
        const code = b.readInt32BE(4);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) this.negotiationByte = true;
        else this.startup = false; // StartupMessage (or CancelRequest, after which the server closes)
        this.fromClientBuf = b.subarray(len);
        continue;
      }
      if (b.length < 5) return;
      const len = b.readInt32BE(1);
      if (b.length < 1 + len) return;
      this.clientMessage(String.fromCharCode(b[0]!), b.subarray(5, 1 + len));
      this.fromClientBuf = b.subarray(1 + len);
    }
  }

  fromServer(chunk: Buffer): void {
    if (this.opaque) return;
    let b = Buffer.concat([this.fromServerBuf, chunk]);
    if (this.negotiationByte && b.length > 0) {
      this.negotiationByte = false;
      if (b[0] === 0x53 /* S: TLS follows */ || b[0] === 0x47 /* G: GSS encryption follows */) {
        this.opaque = true;
        return;
      }
      b = b.subarray(1);
    }
    while (b.length >= 5) {
      const len = b.readInt32BE(1);
      if (b.length < 1 + len) break;
      if (b[0] === 0x5a /* Z: ReadyForQuery */) {
        if (this.ready) this.pending = Math.max(0, this.pending - 1);
        this.ready = true;
      }
      b = b.subarray(1 + len);
    }
    this.fromServerBuf = b;
  }

  private clientMessage(type: string, body: Buffer): void {
    if (!this.ready || type === 'X') return; // authentication, or Terminate
    const t = this.totals();
    if (this.pending === 0 && !this.building) t.roundTrips++;
    this.building = true;
    switch (type) {
      case 'P': {
        const [name, text] = cstrings(body, 2);
        this.statements.set(name!, text!);
        break;
      }
      case 'B': {
        const [, statement] = cstrings(body, 2);
        this.portalText = this.statements.get(statement!) ?? '(unknown)';
        break;
      }
      case 'E':
        this.count(t, this.portalText);
        break;
      case 'Q':
        this.count(t, cstrings(body, 1)[0]!);
        this.endGroup();
        break;
      case 'S':
        this.endGroup();
        break;
    }
  }

  private count(t: WireCounts, text: string): void {
    const key = text.replace(/\s+/g, ' ').trim();
    t.statements++;
    t.byText[key] = (t.byText[key] ?? 0) + 1;
    if (/^COMMIT\b/i.test(key)) t.commits++;
  }

  private endGroup(): void {
    this.pending++;
    this.building = false;
  }
}

/** The first `n` NUL-terminated strings of a message body. */
function cstrings(body: Buffer, n: number): string[] {
  const out: string[] = [];
  let at = 0;
  for (let i = 0; i < n; i++) {
    const end = body.indexOf(0, at);
    if (end < 0) break;
    out.push(body.toString('utf8', at, end));
    at = end + 1;
  }
  return out;
}
