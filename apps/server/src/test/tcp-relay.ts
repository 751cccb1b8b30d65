import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP relay in front of a real server (PostgreSQL, Redis), so a test can take that server
 * away from one app: `blackhole()` stops delivering bytes either way (a network that went
 * silent: requests already sent stay in flight), `cut()` drops every open connection and
 * stops listening, as a server that went down would look to the app.
 */
export async function tcpRelay(target: { host: string; port: number }): Promise<{
  port: number;
  blackhole(): void;
  cut(): Promise<void>;
}> {
  const sockets = new Set<Socket>();
  let silent = false;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => {
      if (!silent) to.write(chunk);
    });
    from.on('error', () => to.destroy());
    from.on('close', () => to.destroy());
  };
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    track(client);
    track(upstream);
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('relay has no port');
  return {
    port: address.port,
    blackhole: () => {
      silent = true;
    },
    cut: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
