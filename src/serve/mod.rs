//! `lancer serve`: a board in the browser that shows every rule. An HTTP server
//! (axum's router on hyper, on tokio) serves the page's embedded assets, a few JSON
//! answers, and one WebSocket per tab, which owns that tab's game and engine. The
//! page holds no rules: it asks the server for positions and legal moves.
//!
//! It is safe to leave running: only the page's own origin and a `Host` naming this
//! server are answered, a token guards a server other machines can reach, every
//! answer carries security headers, slow or silent clients time out, and the search
//! slots are shared fairly between tabs (docs/serve.md).

pub mod board;
mod guard;
pub mod session;

use crate::rules::Variants;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Json, Router};
use serde_json::{json, Value};
use session::{Event, Session};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Semaphore;

/// The port `lancer serve` listens on unless `--port` says otherwise.
pub const DEFAULT_PORT: u16 = 8133;
/// Most games (open tabs) at once.
pub const MAX_SESSIONS: usize = 16;
/// Most searches at once, over all tabs (a tab holds at most one).
pub const MAX_SEARCHES: usize = 2;
/// Largest request head (request line and headers, bytes): the URL of a long game fits.
pub const MAX_HEAD: usize = 32 * 1024;
/// Largest request head hyper reads at all; between [`MAX_HEAD`] and this the
/// answer is a JSON `431`, beyond it hyper's own bare `431`.
const MAX_READ_HEAD: usize = 64 * 1024;
/// Largest WebSocket message (bytes): a long PGN fits.
pub const MAX_MESSAGE: usize = 256 * 1024;
/// Messages a tab may send a second on average, and at once.
const MESSAGES_PER_SECOND: f64 = 100.0;
const MESSAGE_BURST: f64 = 200.0;

const INDEX_HTML: &str = include_str!("assets/index.html");
const STYLE_CSS: &str = include_str!("assets/style.css");
/// The page's script: ES modules, each served at `/js/NAME`.
const MODULES: [(&str, &str); 8] = [
    ("main.js", include_str!("assets/js/main.js")),
    ("socket.js", include_str!("assets/js/socket.js")),
    ("board.js", include_str!("assets/js/board.js")),
    ("chooser.js", include_str!("assets/js/chooser.js")),
    ("moves.js", include_str!("assets/js/moves.js")),
    ("controls.js", include_str!("assets/js/controls.js")),
    ("review.js", include_str!("assets/js/review.js")),
    ("dom.js", include_str!("assets/js/dom.js")),
];

/// How the server runs: where it listens, who it answers, its timeouts.
#[derive(Clone, Debug)]
pub struct Config {
    pub host: String,
    /// 0: any free port.
    pub port: u16,
    /// The token every request must carry (`?token=`, the cookie the first visit
    /// sets, or `Authorization: token T`); `None`: none asked.
    pub token: Option<String>,
    /// A request's head must arrive within this.
    pub header_timeout: Duration,
    /// A WebSocket is pinged this often...
    pub ping_interval: Duration,
    /// ...and closed when nothing (a pong, a message) came back for this long.
    pub idle_timeout: Duration,
    /// A message whose first bytes came must be whole within this.
    pub message_timeout: Duration,
    /// An analysis that has run this long gives its slot to a tab waiting for one
    /// (and waits for the next).
    pub search_slice: Duration,
}

impl Config {
    /// The defaults for `host:port`, without a token.
    pub fn new(host: &str, port: u16) -> Config {
        Config {
            host: host.to_string(),
            port,
            token: None,
            header_timeout: Duration::from_secs(10),
            ping_interval: Duration::from_secs(20),
            idle_timeout: Duration::from_secs(60),
            message_timeout: Duration::from_secs(10),
            search_slice: Duration::from_secs(15),
        }
    }
}

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    variants: Variants,
    sessions: Arc<Semaphore>,
    searches: Arc<Semaphore>,
    /// Tabs waiting for a search slot.
    waiting: Arc<AtomicUsize>,
    config: Arc<Config>,
    access: Arc<guard::Access>,
}

/// Bytes read from one connection so far: a WebSocket tab compares it with what
/// whole messages account for, to notice a message left half-sent.
#[derive(Clone, Default)]
pub struct ConnBytes(Arc<AtomicU64>);

/// A connection that counts the bytes read from it.
struct Counted<T> {
    inner: T,
    read: ConnBytes,
}

impl<T: AsyncRead + Unpin> AsyncRead for Counted<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.inner).poll_read(cx, buf);
        let n = buf.filled().len() - before;
        self.read.0.fetch_add(n as u64, Ordering::Relaxed);
        r
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Counted<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// The router: the page, its assets, the JSON API and the WebSocket, behind the
/// guard (limits, `Host`, token, origin) and with the security headers on every
/// answer.
fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/js/{name}", get(module))
        .route("/style.css", get(style_css))
        .route("/api/variants", get(variants))
        .route("/api/position", get(position))
        .route("/api/status", get(status))
        .route("/ws", get(ws))
        .fallback(not_found)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::check,
        ))
        .layer(axum::middleware::map_response(guard::security_headers))
        .with_state(state)
}

/// Runs the server on `host:port` until the process ends. It prints its URL first
/// (with the token where one is needed) and a warning when it listens beyond the
/// loopback address, where a token is always asked (`token`, or one drawn at
/// random).
pub fn run(variants: Variants, host: &str, port: u16, token: Option<String>) -> Result<(), String> {
    let mut config = Config::new(host, port);
    config.token = token;
    let (addr, token, server) = start_server(variants, config, true)?;
    if !addr.ip().is_loopback() {
        eprintln!(
            "warning: lancer serve listens on {}, which other machines can reach: \
             anyone who has the URL with its token can use this engine",
            addr.ip()
        );
    }
    let shown = match addr.ip() {
        ip if ip.is_unspecified() => SocketAddr::new(IpAddr::from([127, 0, 0, 1]), addr.port()),
        _ => addr,
    };
    match &token {
        Some(t) => println!("lancer serve: {}?token={t}", url(shown)),
        None => println!("lancer serve: {}", url(shown)),
    }
    use std::io::Write;
    let _ = std::io::stdout().flush();
    server
        .join()
        .map_err(|_| "the server stopped unexpectedly".to_string())?
}

/// The page's URL for a listening address.
pub fn url(addr: SocketAddr) -> String {
    if addr.is_ipv6() {
        format!("http://[{}]:{}/", addr.ip(), addr.port())
    } else {
        format!("http://{addr}/")
    }
}

/// A server thread's handle: it ends only on a server error.
pub type ServerThread = std::thread::JoinHandle<Result<(), String>>;

/// Binds `host:port` (port 0: any free port) with the default settings and serves
/// on a thread of its own; returns the address bound and the thread.
pub fn start(
    variants: Variants,
    host: &str,
    port: u16,
) -> Result<(SocketAddr, ServerThread), String> {
    start_with(variants, Config::new(host, port))
}

/// As [`start`], with `config`'s token and timeouts (no token is drawn: one
/// beyond loopback must be given).
pub fn start_with(
    variants: Variants,
    config: Config,
) -> Result<(SocketAddr, ServerThread), String> {
    let (addr, _, thread) = start_server(variants, config, false)?;
    Ok((addr, thread))
}

fn start_server(
    variants: Variants,
    mut config: Config,
    draw_token: bool,
) -> Result<(SocketAddr, Option<String>, ServerThread), String> {
    let (host, port) = (config.host.clone(), config.port);
    let fail = |e: std::io::Error| format!("cannot listen on {host}:{port}: {e}");
    let listener = std::net::TcpListener::bind((host.as_str(), port)).map_err(fail)?;
    let addr = listener.local_addr().map_err(fail)?;
    listener.set_nonblocking(true).map_err(fail)?;
    if !addr.ip().is_loopback() && config.token.is_none() {
        if !draw_token {
            return Err(format!(
                "listening on {} needs a token (--token)",
                addr.ip()
            ));
        }
        config.token = Some(guard::new_token());
    }
    if config.token.as_deref().is_some_and(|t| !guard::token_ok(t)) {
        return Err("a token is 8 to 128 letters, digits, '-' or '_'".into());
    }
    let token = config.token.clone();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    let access = guard::Access::new(addr, config.token.clone());
    let state = AppState {
        variants,
        sessions: Arc::new(Semaphore::new(MAX_SESSIONS)),
        searches: Arc::new(Semaphore::new(MAX_SEARCHES)),
        waiting: Arc::new(AtomicUsize::new(0)),
        config: Arc::new(config),
        access: Arc::new(access),
    };
    let thread = std::thread::Builder::new()
        .name("serve".into())
        .spawn(move || {
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener)
                    .map_err(|e| format!("cannot listen: {e}"))?;
                serve(listener, state).await;
                Ok(())
            })
        })
        .map_err(|e| format!("cannot start the server: {e}"))?;
    Ok((addr, token, thread))
}

/// Accepts connections for ever; each is served by hyper's HTTP/1 with the head's
/// timeout and size limits, upgrades allowed.
async fn serve(listener: tokio::net::TcpListener, state: AppState) {
    let app = router(state.clone());
    loop {
        let (tcp, _) = match listener.accept().await {
            Ok(c) => c,
            Err(_) => {
                // Out of descriptors or a connection reset before it was taken:
                // wait a little rather than spin.
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let _ = tcp.set_nodelay(true);
        let read = ConnBytes::default();
        let io = hyper_util::rt::TokioIo::new(Counted {
            inner: tcp,
            read: read.clone(),
        });
        let service =
            hyper_util::service::TowerToHyperService::new(app.clone().layer(Extension(read)));
        let timeout = state.config.header_timeout;
        tokio::spawn(async move {
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(timeout)
                .max_buf_size(MAX_READ_HEAD + 8192)
                .max_header_size(MAX_READ_HEAD)
                .serve_connection(io, service)
                .with_upgrades()
                .await;
        });
    }
}

fn error_response(status: StatusCode, msg: impl Into<String>) -> Response {
    (status, Json(json!({"error": msg.into()}))).into_response()
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

async fn index() -> Response {
    asset("text/html; charset=utf-8", INDEX_HTML)
}

async fn module(Path(name): Path<String>, uri: Uri) -> Response {
    match MODULES.iter().find(|(n, _)| *n == name) {
        Some((_, body)) => asset("text/javascript; charset=utf-8", body),
        None => not_found(uri).await,
    }
}

async fn style_css() -> Response {
    asset("text/css; charset=utf-8", STYLE_CSS)
}

async fn not_found(uri: Uri) -> Response {
    error_response(
        StatusCode::NOT_FOUND,
        format!("nothing is served at {}", uri.path()),
    )
}

async fn variants(State(st): State<AppState>) -> Response {
    Json(board::variants_json(&st.variants)).into_response()
}

async fn status(State(st): State<AppState>) -> Response {
    Json(json!({
        "sessions": MAX_SESSIONS - st.sessions.available_permits(),
        "searches": MAX_SEARCHES - st.searches.available_permits(),
        "waiting": st.waiting.load(Ordering::SeqCst),
        "max_sessions": MAX_SESSIONS,
        "max_searches": MAX_SEARCHES,
    }))
    .into_response()
}

/// `/api/position?variant=V&fen=EFEN&setup=N&moves=M1,M2`: the position after the
/// moves, its legal moves, or 400 with the reason.
async fn position(
    State(st): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let variant = q.get("variant").map_or("chess", String::as_str);
    let setup = match q.get("setup").map(|s| s.trim()).filter(|s| !s.is_empty()) {
        Some(s) => match s.parse::<usize>() {
            Ok(n) => Some(n),
            Err(_) => return error_response(StatusCode::BAD_REQUEST, "the setup is a number"),
        },
        None => None,
    };
    let moves: Vec<&str> = q
        .get("moves")
        .map(|m| m.split([',', ' ']).filter(|t| !t.is_empty()).collect())
        .unwrap_or_default();
    if moves.len() > session::MAX_PLIES {
        return error_response(
            StatusCode::BAD_REQUEST,
            format!("more than {} moves", session::MAX_PLIES),
        );
    }
    let game = board::start_position(
        &st.variants,
        variant,
        q.get("fen").map(String::as_str),
        setup,
    )
    .and_then(|start| board::replay(start, &moves));
    match game {
        Ok(g) => {
            let over = g.outcome().is_some();
            let mut v = board::game_json(&g, g.moves().len(), over);
            if let (Value::Object(o), Some(out)) = (&mut v, g.outcome()) {
                o.insert(
                    "result".into(),
                    json!({"score": out.score(), "text": out.describe(g.position().variant()).to_string()}),
                );
            }
            Json(v).into_response()
        }
        Err(e) => error_response(StatusCode::BAD_REQUEST, e),
    }
}

/// `/ws`: one tab's game. When `MAX_SESSIONS` tabs are open the socket is opened,
/// told why, and closed (a page cannot read a refused handshake's reason).
async fn ws(
    State(st): State<AppState>,
    Extension(read): Extension<ConnBytes>,
    upgrade: WebSocketUpgrade,
) -> Response {
    let permit = st.sessions.clone().try_acquire_owned().ok();
    upgrade
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |mut socket| async move {
            match permit {
                Some(p) => {
                    tab(socket, st, read).await;
                    drop(p);
                }
                None => {
                    let why =
                        format!("the server has {MAX_SESSIONS} games open already; close a tab");
                    let _ = send(&mut socket, session::refused(&why)).await;
                    close(&mut socket, 1013, &why).await;
                }
            }
        })
}

async fn send(socket: &mut WebSocket, v: Value) -> bool {
    socket
        .send(Message::Text(v.to_string().into()))
        .await
        .is_ok()
}

/// Closes with `code` and `why` (cut to the 123 bytes a close frame holds).
async fn close(socket: &mut WebSocket, code: u16, why: &str) {
    let mut reason = why.to_string();
    while reason.len() > 123 {
        reason.pop();
    }
    let _ = socket
        .send(Message::Close(Some(CloseFrame {
            code,
            reason: reason.into(),
        })))
        .await;
}

/// One tab: its messages in (at most [`MESSAGES_PER_SECOND`] on average), the
/// search's reports, the clock, pings; it ends when the page goes, stops
/// answering, or leaves a message half-sent. The search stops when the tab goes.
async fn tab(mut socket: WebSocket, st: AppState, read: ConnBytes) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Event>();
    let mut session = match Session::new(
        st.variants.clone(),
        st.searches.clone(),
        st.waiting.clone(),
        tx,
    ) {
        Ok(s) => s,
        Err(e) => {
            let _ = send(&mut socket, session::error(e)).await;
            return;
        }
    };
    let cfg = st.config.clone();
    let mut tick = tokio::time::interval(Duration::from_millis(250));
    let mut ping = tokio::time::interval(cfg.ping_interval);
    ping.tick().await;
    let mut heard = Instant::now();
    // The bytes whole frames account for, and since when more have come.
    let mut accounted = read.0.load(Ordering::Relaxed);
    let mut partial_since: Option<Instant> = None;
    let mut tokens = MESSAGE_BURST;
    let mut refill = Instant::now();
    let why: Option<(u16, &str)> = 'tab: loop {
        let now = Instant::now();
        tokens = (tokens + now.duration_since(refill).as_secs_f64() * MESSAGES_PER_SECOND)
            .min(MESSAGE_BURST);
        refill = now;
        let out: Vec<Value> = tokio::select! {
            msg = socket.recv(), if tokens >= 1.0 => {
                heard = Instant::now();
                accounted = read.0.load(Ordering::Relaxed);
                partial_since = None;
                match msg {
                    Some(Ok(Message::Text(t))) => {
                        tokens -= 1.0;
                        match serde_json::from_str::<Value>(t.as_str()) {
                            Ok(v) => session.handle(&v),
                            Err(e) => session.refuse(format!("not a JSON message: {e}")),
                        }
                    }
                    Some(Ok(Message::Binary(_))) => {
                        tokens -= 1.0;
                        session.refuse("messages are JSON text")
                    }
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break 'tab None,
                    Some(Ok(_)) => Vec::new(),
                }
            },
            Some(ev) = rx.recv() => session.event(ev),
            _ = tick.tick() => {
                let now = Instant::now();
                if now.duration_since(heard) > cfg.idle_timeout {
                    break 'tab Some((1001, "the page stopped answering"));
                }
                if read.0.load(Ordering::Relaxed) > accounted {
                    let since = *partial_since.get_or_insert(now);
                    if now.duration_since(since) > cfg.message_timeout {
                        break 'tab Some((1008, "a message was left half-sent"));
                    }
                }
                session.tick(cfg.search_slice)
            },
            _ = ping.tick() => {
                if socket.send(Message::Ping(Vec::new().into())).await.is_err() {
                    break 'tab None;
                }
                Vec::new()
            },
        };
        for v in out {
            if !send(&mut socket, v).await {
                break 'tab None;
            }
        }
    };
    if let Some((code, why)) = why {
        close(&mut socket, code, why).await;
    }
    // The tab went: its search stops at once (blocking only while the search
    // thread notices the flag).
    tokio::task::block_in_place(|| session.stop());
}
