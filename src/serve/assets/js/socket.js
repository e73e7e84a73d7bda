// The tab's WebSocket: messages in and out, and coming back after the server
// restarts or refused the tab (the reason shown, then another try).

// Opens the socket and keeps it open. `onOpen` runs on every (re)connection,
// `onMessage` gets each message, `onStatus` a line about the connection ("" when
// all is well). Returns `send`, which reports whether the message went.
export function connect({ onOpen, onMessage, onStatus }) {
  let ws = null;
  let delay = 1000;
  let refusal = "";
  // A page being left (or kept in the back-forward cache) lets its tab go and
  // does not come back until it is shown again.
  let away = false;
  const token = new URLSearchParams(location.search).get("token");

  function open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = token ? "?token=" + encodeURIComponent(token) : "";
    ws = new WebSocket(`${proto}//${location.host}/ws${q}`);
    ws.onopen = () => {
      refusal = "";
      onStatus("");
      onOpen();
    };
    ws.onmessage = (ev) => {
      let m;
      try {
        m = JSON.parse(ev.data);
      } catch (e) {
        return;
      }
      if (m.type === "refused") {
        refusal = m.message;
        return;
      }
      delay = 1000;
      onMessage(m);
    };
    ws.onclose = (ev) => {
      if (away) return;
      const why = refusal || ev.reason || "the connection to lancer serve closed";
      const secs = Math.round(delay / 1000);
      onStatus(`${why}; trying again in ${secs} s`, true);
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 10000);
    };
  }

  window.addEventListener("pagehide", () => {
    away = true;
    if (ws) ws.close();
  });
  window.addEventListener("pageshow", (ev) => {
    if (ev.persisted && away) {
      away = false;
      open();
    }
  });
  open();
  return function send(msg) {
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      onStatus("not connected to lancer serve; trying again", true);
      return false;
    }
    ws.send(JSON.stringify(msg));
    return true;
  };
}
