// Calls to the server's JSON API (documented in the README, "Web page").

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
    throw new ApiError(0, 'cannot reach the npuzzle server (is `npuzzle serve` still running?)');
  }
  const data = await response.json().catch(() => ({}));
  if (response.ok || response.status === 422) return { status: response.status, data };
  throw new ApiError(response.status, data.error || `server answered ${response.status}`, data);
}

export async function info() {
  const response = await fetch('/api/info');
  return response.json();
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
    throw new ApiError(0, 'cannot reach the npuzzle server (is `npuzzle serve` still running?)');
  }
  if (!response.ok) {
    const data = await response.json().catch(() => ({}));
    if (response.status === 422) return { result: data, status: 422 };
    throw new ApiError(response.status, data.error || `server answered ${response.status}`, data);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  let last = null;
  for (;;) {
    const { value, done } = await reader.read();
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
