import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One command the stand-in widget was given, and the page path it was given on. */
export interface StandinCall {
  command: string;
  options: Record<string, unknown> | null;
  path: string;
}

/**
 * The stand-in's browser script: it takes over `window.Intercom` (running the commands queued
 * before it arrived), shows a launcher on boot and removes it on shutdown, and reports every
 * command to its server with a call the page's connect-src must allow.
 */
function standinScript(origin: string): string {
  return `(function () {
  var root = null;
  function show() {
    if (root) return;
    root = document.createElement('aside');
    root.id = 'standin-messenger';
    root.setAttribute('aria-label', 'Messenger');
    var button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Chat with us';
    button.style.position = 'fixed';
    button.style.right = '1rem';
    button.style.bottom = '1rem';
    button.style.background = '#1f1f1f';
    button.style.color = '#ffffff';
    button.style.padding = '0.75rem 1rem';
    root.append(button);
    document.body.append(root);
  }
  function handle(args) {
    var command = String(args[0]);
    var options = args.length > 1 ? args[1] : null;
    fetch(${JSON.stringify(`${origin}/calls`)}, {
      method: 'POST',
      mode: 'no-cors',
      body: JSON.stringify({ command: command, options: options, path: location.pathname }),
    });
    if (command === 'boot') show();
    if (command === 'shutdown' && root) {
      root.remove();
      root = null;
    }
  }
  var queued = (window.Intercom && window.Intercom.q) || [];
  window.Intercom = function () { handle(Array.prototype.slice.call(arguments)); };
  queued.forEach(handle);
})();`;
}

/** The self-hosted messenger stand-in on a local port: /messenger.js, and what it was told. */
export async function startMessengerStandin() {
  const calls: StandinCall[] = [];
  let scriptLoads = 0;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/messenger.js') {
      scriptLoads += 1;
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(standinScript(origin));
      return;
    }
    if (req.method === 'POST' && url.pathname === '/calls') {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        calls.push(JSON.parse(body) as StandinCall);
        res.writeHead(204).end();
      });
      return;
    }
    res.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    scriptUrl: `${origin}/messenger.js`,
    calls,
    scriptLoads: () => scriptLoads,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
