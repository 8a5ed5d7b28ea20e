// The connections accepted on the data dir's unix socket (local-socket.ts). Only the socket's own
// server adds to it, so membership is proof a request did not come over TCP (auth.ts).

/** The connections accepted on the unix socket. */
export class LocalSockets {
  private readonly sockets = new WeakSet<object>();
  add(socket: object): void {
    this.sockets.add(socket);
  }
  has(socket: object): boolean {
    return this.sockets.has(socket);
  }
}
