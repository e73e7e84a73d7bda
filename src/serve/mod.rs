//! `lancer serve`: a board in the browser that shows every rule. An HTTP server
//! (axum on tokio) serves the page's embedded assets, a few JSON answers, and one
//! WebSocket per tab, which owns that tab's game and engine. The page holds no
//! rules: it asks the server for positions and legal moves (docs/protocols.md,
//! `lancer serve`).

pub mod board;
pub mod session;

use crate::rules::Variants;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use session::{Event, Session};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// The port `lancer serve` listens on unless `--port` says otherwise.
pub const DEFAULT_PORT: u16 = 8133;
/// Most games (open tabs) at once.
pub const MAX_SESSIONS: usize = 16;
/// Most searches at once, over all tabs.
pub const MAX_SEARCHES: usize = 2;
/// Longest request line accepted (bytes): the URL of a long game fits.
const MAX_URI: usize = 32 * 1024;
/// Largest WebSocket message (bytes): a long PGN fits.
const MAX_MESSAGE: usize = 256 * 1024;

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE_CSS: &str = include_str!("assets/style.css");

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    variants: Variants,
    sessions: Arc<Semaphore>,
    searches: Arc<Semaphore>,
}

impl AppState {
    /// The server's state with these variants and bounds.
    pub fn new(variants: Variants) -> AppState {
        AppState {
            variants,
            sessions: Arc::new(Semaphore::new(MAX_SESSIONS)),
            searches: Arc::new(Semaphore::new(MAX_SEARCHES)),
        }
    }
}

/// The router: the page, its assets, the JSON API and the WebSocket.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/app.js", get(app_js))
        .route("/style.css", get(style_css))
        .route("/api/variants", get(variants))
        .route("/api/position", get(position))
        .route("/api/status", get(status))
        .route("/ws", get(ws))
        .fallback(not_found)
        .with_state(state)
}

/// Runs the server on `host:port` until the process ends; prints its URL first.
pub fn run(variants: Variants, host: &str, port: u16) -> Result<(), String> {
    let (addr, server) = start(variants, host, port)?;
    println!("lancer serve: {}", url(addr));
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

/// Binds `host:port` (port 0: any free port) and serves on a thread of its own;
/// returns the address bound and the thread, which ends only on a server error.
pub fn start(
    variants: Variants,
    host: &str,
    port: u16,
) -> Result<(SocketAddr, std::thread::JoinHandle<Result<(), String>>), String> {
    let listener = std::net::TcpListener::bind((host, port))
        .map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    let thread = std::thread::Builder::new()
        .name("serve".into())
        .spawn(move || {
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener)
                    .map_err(|e| format!("cannot listen: {e}"))?;
                axum::serve(listener, router(AppState::new(variants)))
                    .await
                    .map_err(|e| format!("server error: {e}"))
            })
        })
        .map_err(|e| format!("cannot start the server: {e}"))?;
    Ok((addr, thread))
}

fn error_response(status: StatusCode, msg: impl Into<String>) -> Response {
    (status, Json(json!({"error": msg.into()}))).into_response()
}

fn too_long(uri: &Uri) -> Option<Response> {
    (uri.to_string().len() > MAX_URI)
        .then(|| error_response(StatusCode::URI_TOO_LONG, "the request is too long"))
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

async fn index(uri: Uri) -> Response {
    too_long(&uri).unwrap_or_else(|| asset("text/html; charset=utf-8", INDEX_HTML))
}

async fn app_js() -> Response {
    asset("text/javascript; charset=utf-8", APP_JS)
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
        "max_sessions": MAX_SESSIONS,
        "max_searches": MAX_SEARCHES,
    }))
    .into_response()
}

/// `/api/position?variant=V&fen=EFEN&setup=N&moves=M1,M2`: the position after the
/// moves, its legal moves, or 400 with the reason.
async fn position(
    State(st): State<AppState>,
    uri: Uri,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    if let Some(r) = too_long(&uri) {
        return r;
    }
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

/// `/ws`: one tab's game. Refused with 503 when `MAX_SESSIONS` tabs are open.
async fn ws(State(st): State<AppState>, upgrade: WebSocketUpgrade) -> Response {
    let permit = match st.sessions.clone().try_acquire_owned() {
        Ok(p) => p,
        Err(_) => {
            return error_response(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the server has {MAX_SESSIONS} games open already; close a tab"),
            )
        }
    };
    upgrade
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| async move {
            tab(socket, st).await;
            drop(permit);
        })
}

async fn send(socket: &mut WebSocket, v: Value) -> bool {
    socket
        .send(Message::Text(v.to_string().into()))
        .await
        .is_ok()
}

/// One tab: its messages in, the search's reports, the clock; the search stops
/// when the tab goes.
async fn tab(mut socket: WebSocket, st: AppState) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Event>();
    let mut session = match Session::new(st.variants.clone(), st.searches.clone(), tx) {
        Ok(s) => s,
        Err(e) => {
            let _ = send(&mut socket, session::error(e)).await;
            return;
        }
    };
    let mut tick = tokio::time::interval(std::time::Duration::from_millis(250));
    'tab: loop {
        let out: Vec<Value> = tokio::select! {
            msg = socket.recv() => match msg {
                Some(Ok(Message::Text(t))) => match serde_json::from_str::<Value>(t.as_str()) {
                    Ok(v) => session.handle(&v),
                    Err(e) => vec![session::error(format!("not a JSON message: {e}"))],
                },
                Some(Ok(Message::Binary(_))) => vec![session::error("messages are JSON text")],
                Some(Ok(_)) => Vec::new(),
                Some(Err(_)) | None => break 'tab,
            },
            Some(ev) = rx.recv() => session.event(ev),
            _ = tick.tick() => {
                if session.check_flag() { vec![session.state()] } else { Vec::new() }
            }
        };
        for v in out {
            if !send(&mut socket, v).await {
                break 'tab;
            }
        }
    }
    // The tab went: its search stops at once (blocking only while the search
    // thread notices the flag).
    tokio::task::block_in_place(|| session.stop());
}
