//! Who the server answers, checked before any handler: the request head within
//! [`MAX_HEAD`](super::MAX_HEAD); a `Host` that names this server (loopback names,
//! or an address of it: a page of another site whose name was rebound to this
//! machine gets nothing); the token where one is set (as Jupyter asks for one);
//! and for the API and the WebSocket, the page's own origin. A refusal is `403`
//! (`414`, `431` for size) with a JSON reason. Every answer then gets the security
//! headers (docs/serve.md).

use super::{error_response, AppState, MAX_HEAD};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use rand::Rng;
use std::net::{IpAddr, SocketAddr};

/// What requests must show.
pub struct Access {
    /// The address the server listens on.
    addr: SocketAddr,
    token: Option<String>,
}

impl Access {
    /// The rules for a server listening on `addr`, with `token` asked if set.
    pub fn new(addr: SocketAddr, token: Option<String>) -> Access {
        Access { addr, token }
    }

    /// The cookie that carries the token, named for the port (cookies are shared
    /// between the ports of one host).
    fn cookie_name(&self) -> String {
        format!("lancer-token-{}", self.addr.port())
    }

    /// Whether `host` (a `Host` header's value) names this server: `localhost` or
    /// a loopback address; the address listened on; any address of this machine
    /// when it listens on all of them. With a token, any name (the token guards).
    fn host_ok(&self, host: &str) -> bool {
        let name = match host.rsplit_once(':') {
            // `[::1]:8133`, `127.0.0.1:8133`, `localhost:8133`; a bare IPv6 is bracketed.
            Some((n, port)) if !n.is_empty() && port.chars().all(|c| c.is_ascii_digit()) => n,
            _ => host,
        };
        let name = name.trim_start_matches('[').trim_end_matches(']');
        if name.eq_ignore_ascii_case("localhost") {
            return true;
        }
        match name.parse::<IpAddr>() {
            Ok(ip) => {
                ip.is_loopback()
                    || ip == self.addr.ip()
                    || self.addr.ip().is_unspecified()
                    || self.token.is_some()
            }
            Err(_) => self.token.is_some() && !name.is_empty(),
        }
    }

    /// Whether the request carries the token (when one is asked): `?token=`, the
    /// cookie, or `Authorization: token T`.
    fn token_ok(&self, query: Option<&str>, headers: &HeaderMap) -> bool {
        let Some(want) = &self.token else {
            return true;
        };
        let eq = |given: &str| constant_time_eq(given.as_bytes(), want.as_bytes());
        if query_token(query).is_some_and(|t| eq(&t)) {
            return true;
        }
        let cookie = self.cookie_name();
        let in_cookie = headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|kv| kv.trim().split_once('='))
            .any(|(k, v)| k == cookie && eq(v));
        let in_auth = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("token "))
            .is_some_and(|t| eq(t.trim()));
        in_cookie || in_auth
    }
}

/// The `token` parameter of a query string.
fn query_token(query: Option<&str>) -> Option<String> {
    query?
        .split('&')
        .find_map(|kv| kv.strip_prefix("token=").map(|t| t.to_string()))
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A token drawn at random: 32 hex digits (128 bits from the thread's
/// cryptographic generator, seeded by the system).
pub fn new_token() -> String {
    let mut rng = rand::thread_rng();
    (0..16)
        .map(|_| format!("{:02x}", rng.gen::<u8>()))
        .collect()
}

/// Whether a token given on the command line is usable in a URL and a cookie.
pub fn token_ok(t: &str) -> bool {
    (8..=128).contains(&t.len())
        && t.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The bytes of a request's head as it came: the request line and the headers.
fn head_size(req: &Request) -> usize {
    let line = req.method().as_str().len() + req.uri().to_string().len() + 12;
    line + req
        .headers()
        .iter()
        .map(|(k, v)| k.as_str().len() + v.len() + 4)
        .sum::<usize>()
}

/// The checks, in order: size, `Host`, token, origin (API and WebSocket only).
pub async fn check(State(st): State<AppState>, req: Request, next: Next) -> Response {
    let uri_len = req.uri().to_string().len();
    if uri_len > MAX_HEAD {
        return error_response(StatusCode::URI_TOO_LONG, "the request is too long");
    }
    if head_size(&req) > MAX_HEAD {
        return error_response(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!("the request's headers are over {} KB", MAX_HEAD / 1024),
        );
    }
    let access = &st.access;
    let headers = req.headers();
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("")
        .to_string();
    if host.is_empty() {
        return error_response(StatusCode::FORBIDDEN, "a request needs a Host header");
    }
    if !access.host_ok(&host) {
        return error_response(
            StatusCode::FORBIDDEN,
            format!("this server does not answer to the name '{host}'"),
        );
    }
    let query_has_token = access.token.is_some()
        && query_token(req.uri().query()).is_some_and(|t| {
            constant_time_eq(
                t.as_bytes(),
                access.token.as_deref().unwrap_or("").as_bytes(),
            )
        });
    if !access.token_ok(req.uri().query(), headers) {
        return error_response(
            StatusCode::FORBIDDEN,
            "this server needs its token: open the URL lancer serve printed, with ?token=...",
        );
    }
    let path = req.uri().path();
    let guarded = path == "/ws" || path.starts_with("/api/");
    if guarded {
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            if origin != format!("http://{host}") {
                return error_response(
                    StatusCode::FORBIDDEN,
                    format!("requests from the page of '{origin}' are not answered; open this server's own page"),
                );
            }
        }
        // A request a page of another site made without CORS (a script or an image
        // tag) says so here, where no Origin is sent.
        if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
            if site != "same-origin" && site != "none" {
                return error_response(
                    StatusCode::FORBIDDEN,
                    "requests from the pages of other sites are not answered",
                );
            }
        }
    }
    let mut resp = next.run(req).await;
    if query_has_token {
        // The first visit with the token: the page and its socket carry it on as a
        // cookie of this server only.
        let cookie = format!(
            "{}={}; Path=/; HttpOnly; SameSite=Strict",
            access.cookie_name(),
            access.token.as_deref().unwrap_or("")
        );
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            resp.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    resp
}

/// The security headers every answer carries: the page runs only its own scripts,
/// styles and images (and `data:` images, its pieces), connects only to its own
/// server, is framed by no one, and sends no referrer.
pub async fn security_headers(mut resp: Response) -> Response {
    let h = resp.headers_mut();
    let set = |h: &mut HeaderMap, k: &'static str, v: &'static str| {
        h.insert(k, HeaderValue::from_static(v));
    };
    set(
        h,
        "content-security-policy",
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
         connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    set(h, "x-frame-options", "DENY");
    set(h, "x-content-type-options", "nosniff");
    set(h, "referrer-policy", "no-referrer");
    set(h, "cross-origin-opener-policy", "same-origin");
    set(h, "cross-origin-resource-policy", "same-origin");
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_that_name_this_server() {
        let local = Access::new("127.0.0.1:8133".parse().unwrap(), None);
        for h in [
            "127.0.0.1:8133",
            "localhost:8133",
            "LOCALHOST",
            "[::1]:8133",
            "127.0.0.2",
        ] {
            assert!(local.host_ok(h), "{h}");
        }
        for h in [
            "evil.example:8133",
            "evil.example",
            "192.168.1.5:8133",
            "",
            "127.0.0.1.evil.example",
        ] {
            assert!(!local.host_ok(h), "{h}");
        }
        let all = Access::new("0.0.0.0:8133".parse().unwrap(), None);
        assert!(all.host_ok("192.168.1.5:8133"));
        assert!(!all.host_ok("evil.example:8133"));
        let with_token = Access::new("0.0.0.0:8133".parse().unwrap(), Some("abcdefgh".into()));
        assert!(with_token.host_ok("mybox.lan:8133"));
    }

    #[test]
    fn tokens() {
        let a = Access::new("127.0.0.1:1".parse().unwrap(), Some("secret-token".into()));
        let mut h = HeaderMap::new();
        assert!(!a.token_ok(None, &h));
        assert!(a.token_ok(Some("variant=chess&token=secret-token"), &h));
        assert!(!a.token_ok(Some("token=secret-tokeN"), &h));
        h.insert(
            header::COOKIE,
            HeaderValue::from_static("x=1; lancer-token-1=secret-token"),
        );
        assert!(a.token_ok(None, &h));
        let mut h = HeaderMap::new();
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("token secret-token"),
        );
        assert!(a.token_ok(None, &h));
        let t = new_token();
        assert!(token_ok(&t) && t.len() == 32 && t != new_token());
        assert!(!token_ok("short") && !token_ok("has space in it"));
    }
}
