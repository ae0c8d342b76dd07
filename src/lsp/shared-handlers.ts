// A connection takes one handler per request: a second `onCodeLens` would replace the first. Several
// features answer code lenses, commands and completion, so each registers here and the connection
// gets one handler per request that asks them all.
import type { Connection } from "vscode-languageserver/node";

// Handlers of every request shape are forwarded as they are.
type Handler = (...args: any[]) => unknown;

/**
 * The connection, with `onCodeLens` gathering every feature's lenses, and `onExecuteCommand` and
 * `onCompletion` taking the first answer that is not null or undefined, in registration order.
 */
export function sharingHandlers(connection: Connection): Connection {
  const gather = (register: (h: Handler) => unknown, combine: (answers: Handler[], args: unknown[]) => Promise<unknown>) => {
    const handlers: Handler[] = [];
    return (h: Handler) => {
      if (handlers.push(h) === 1) register((...args: unknown[]) => combine(handlers, args));
      return { dispose: () => void (handlers.includes(h) && handlers.splice(handlers.indexOf(h), 1)) };
    };
  };
  const first = async (hs: Handler[], args: unknown[]) => {
    for (const h of [...hs]) {
      const answer = await h(...args);
      if (answer !== null && answer !== undefined) return answer;
    }
    return null;
  };
  const all = async (hs: Handler[], args: unknown[]) => (await Promise.all(hs.map((h) => h(...args)))).flatMap((x) => (Array.isArray(x) ? x : []));
  const shared: Partial<Record<keyof Connection, unknown>> = {
    onCodeLens: gather((h) => connection.onCodeLens(h as never), all),
    onExecuteCommand: gather((h) => connection.onExecuteCommand(h as never), first),
    onCompletion: gather((h) => connection.onCompletion(h as never), first),
  };
  return Object.assign(Object.create(connection) as Connection, shared);
}
