// HTTP/2 answers leave over two turns of the event loop: node's http2 session writes what a turn
// queued at the start of the next one, and only then asks for a stream's trailers (where grpc-js
// puts the call's status), which leave one turn later still; a client cannot finish a call without
// them. The gRPC server marks the turns in which it answered, and a write batch (group-commit.ts)
// about to start in the turn after waits one turn more, so those trailers go out before it holds
// the event loop for its transaction. Without the wait a closed-loop gRPC client and the server
// took turns (measured: consume over gRPC +17–23% with the wait). HTTP/1.1 answers are written at once
// and need no mark.
//
// One signal per server, made by the composition root and handed to both sides (the gRPC server's
// options, the database's commit queue), so two servers in one process never mark each other's turns.
export class AnswerTurns {
  private answered = false;

  /** Called by a transport whose answers finish leaving a turn later (gRPC). */
  answeredThisTurn(): void {
    this.answered = true;
  }

  /** Whether answers were given since the last call; forgets them. */
  takeAnswered(): boolean {
    const a = this.answered;
    this.answered = false;
    return a;
  }
}
