// A server-sent-event stream that stays open: the session cookie signs it in; when it drops (the server
// ended it, the access token expired) the session is refreshed through the API and the stream reopened.
import { api } from "./api.js";

/** Opens `path` and calls `handlers[event](data)`; returns a function that closes it for good. */
export function live(path, handlers) {
  let source = null;
  let closed = false;
  let retry = null;
  const open = () => {
    if (closed) return;
    source = new EventSource(path);
    for (const [event, handle] of Object.entries(handlers)) {
      source.addEventListener(event, (message) => handle(message.data ? JSON.parse(message.data) : null));
    }
    source.addEventListener("error", () => {
      if (source.readyState !== EventSource.CLOSED || closed) return;
      // A read through the API renews an expired session before the stream is opened again.
      retry = setTimeout(() => api("GET", "/api/user/profile").then(open, open), 1000);
    });
  };
  open();
  return () => {
    closed = true;
    clearTimeout(retry);
    source?.close();
  };
}
