// Calls to the server's JSON API (documented in docs/web-api.md).

const UNREACHABLE = 'cannot reach the npuzzle server (is `npuzzle serve` still running?)';

/** An answer the server refused, with its one-line message. */
export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/**
 * POSTs JSON and returns the parsed answer. A 422 (unsolvable board) is returned, not thrown:
 * its body is a full report. Other non-2xx answers throw an ApiError with the server's message.
 */
export async function post(path, body, signal) {
  let response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(0, UNREACHABLE);
  }
  const data = await response.json().catch(() => ({}));
  if (response.ok || response.status === 422) return { status: response.status, data };
  throw new ApiError(response.status, data.error || answered(response.status), data);
}

/** Words for a refusal whose body names no error (the HTTP layer's own, or a proxy's). */
function answered(status) {
  if (status === 503 || status === 429) return 'the server is busy: try again in a moment';
  return `server answered ${status}`;
}

export async function info() {
  let response;
  try {
    response = await fetch('/api/info');
  } catch {
    throw new ApiError(0, UNREACHABLE);
  }
  return response.json();
}

/**
 * The server's plan for a board shape and goal: the menus (`algorithms`, `heuristics`, each
 * `{id, label, available, why}`) and the plan auto would run. With `choice` ({heuristic,
 * algorithm, weight, width, optimal, time_limit}) the plan a solve of that choice and time
 * limit runs (past 16 cells a short limit leaves auto no time for tables); a refused choice
 * throws an ApiError (400).
 * The server is the only planner: the page never guesses what it would run, so a server
 * that cannot answer (an error, or no `/api/plan` at all) is reported as such.
 */
export async function plan(size, goal, choice = null) {
  const q = new URLSearchParams({ size, goal });
  if (choice?.heuristic) q.set('heuristic', choice.heuristic);
  if (choice?.algorithm) q.set('algorithm', choice.algorithm);
  if (choice?.weight != null) q.set('weight', String(choice.weight));
  if (choice?.width != null) q.set('width', String(choice.width));
  if (choice?.optimal) q.set('optimal', 'true');
  if (choice?.time_limit) q.set('time_limit', String(choice.time_limit));
  let response;
  try {
    response = await fetch(`/api/plan?${q}`);
  } catch {
    throw new ApiError(0, UNREACHABLE);
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, data.error || answered(response.status), data);
  return data;
}

/**
 * POSTs to a streaming endpoint and calls `onLine` with each JSON line as it arrives.
 * Resolves with the last line. Aborting the signal closes the connection, which stops the
 * search on the server.
 */
export async function stream(path, body, onLine, signal) {
  let response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(0, UNREACHABLE);
  }
  if (!response.ok) {
    const data = await response.json().catch(() => ({}));
    if (response.status === 422) return { result: data, status: 422 };
    throw new ApiError(response.status, data.error || answered(response.status), data);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  let last = null;
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch (e) {
      if (e.name === 'AbortError' || signal?.aborted) throw e;
      throw new ApiError(0, 'lost the connection to the npuzzle server during the search');
    }
    const { value, done } = chunk;
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (!line) continue;
      last = JSON.parse(line);
      onLine(last);
    }
  }
  return last;
}
