//! `lancer serve` in a real browser: Debian's headless Chromium driven over
//! WebDriver (chromedriver's W3C HTTP API, spoken through ureq). A game in every
//! variant is played by clicks on the page, with a lancer turn, a Full Cavalry
//! castling with its facing, a promotion to a lancer, a Royal Standard displacement,
//! windmill moves and a Lighthouse drop; after each move the page's `data-`
//! attributes are checked against lancer's own position, and the targets a click
//! shows against lancer's legal moves. Screenshots and chromedriver's logs go to
//! `target/serve-browser/`.
//! Without `chromium` and `chromedriver` the test says it skipped, except under CI
//! (`CI` set), which must have them (`.ci/run` installs them).

mod common;

use lancer::rules::bitboard::{parse_square, square, square_name};
use lancer::rules::notation::parse_any;
use lancer::rules::piece::{Kind, FACING_NAMES, NKINDS};
use lancer::rules::{Color, MoveList, Position, Variants};
use lancer::serve::board::{click_squares, start_position};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::time::{Duration, Instant};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// The HTTP client of these tests: answers of every status are read (WebDriver's
/// errors come as JSON with a 4xx or 5xx), no proxy, two minutes at most a request.
fn agent() -> &'static ureq::Agent {
    static AGENT: std::sync::OnceLock<ureq::Agent> = std::sync::OnceLock::new();
    AGENT.get_or_init(|| {
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .proxy(None)
            .timeout_global(Some(Duration::from_secs(120)))
            .build()
            .into()
    })
}

/// An HTTP request (a POST with a JSON body, a GET or a DELETE); the answer's JSON.
/// An answer that is not JSON, or none, is kept as text, for the message of a failure.
fn http_json(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> Value {
    let url = format!("http://{addr}{path}");
    let answer = match (method, body) {
        ("POST", Some(body)) => agent().post(&url).send_json(body),
        ("GET", None) => agent().get(&url).call(),
        ("DELETE", None) => agent().delete(&url).call(),
        _ => panic!("no {method} {path} with body {body:?} in these tests"),
    };
    let text = answer.and_then(|mut r| {
        // Screenshots are megabytes of base64.
        r.body_mut().with_config().limit(64 << 20).read_to_string()
    });
    match text {
        Ok(t) => {
            serde_json::from_str(&t).unwrap_or_else(|_| Value::String(format!("(not JSON) {t}")))
        }
        Err(e) => Value::String(format!("(no answer) {method} {url}: {e}")),
    }
}

/// A chromedriver process with one headless Chromium session. One runs at a time
/// (the tests share two cores), each with its own profile.
struct Browser {
    driver: std::process::Child,
    addr: SocketAddr,
    session: String,
    profile: std::path::PathBuf,
    log: std::path::PathBuf,
    _turn: std::sync::MutexGuard<'static, ()>,
}

/// Held by the one Browser alive.
static ONE_BROWSER: std::sync::Mutex<()> = std::sync::Mutex::new(());
/// Numbers the browsers of this process, so no two share a profile.
static BROWSERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// `target/serve-browser/`, made if missing: the screenshots and chromedriver's logs.
fn out_dir() -> std::path::PathBuf {
    let dir = Path::new(ROOT).join("target/serve-browser");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The last lines of a file (chromedriver's log, when a session fails).
fn tail(path: &Path, lines: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = http_json(
            self.addr,
            "DELETE",
            &format!("/session/{}", self.session),
            None,
        );
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

impl Browser {
    /// A desktop window of 1400 x 1000.
    fn start() -> Browser {
        Browser::sized("desktop", 1400, 1000, false)
    }

    /// A browser whose page is `w` x `h` CSS pixels (a phone's with `mobile`).
    /// `evil.example` resolves to this machine, as a rebound name would. A session
    /// that fails to start is tried again with a new chromedriver, up to three times.
    fn sized(name: &str, w: u32, h: u32, mobile: bool) -> Browser {
        let turn = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
        let n = BROWSERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let log = out_dir().join(format!("chromedriver-{n}-{name}.log"));
        let profile =
            std::env::temp_dir().join(format!("lancer-chromium-{}-{n}-{name}", std::process::id()));
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "mobileEmulation": {"deviceMetrics": {
                    "width": w, "height": h, "pixelRatio": 1.0, "mobile": mobile, "touch": mobile,
                }},
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--window-size=1400,1000",
                    "--host-resolver-rules=MAP evil.example 127.0.0.1",
                    format!("--user-data-dir={}", profile.display()),
                ],
            },
        }}});
        let mut failures = Vec::new();
        for attempt in 1..=3 {
            let _ = std::fs::remove_dir_all(&profile);
            let port = std::net::TcpListener::bind("127.0.0.1:0")
                .unwrap()
                .local_addr()
                .unwrap()
                .port();
            let mut driver = std::process::Command::new(CHROMEDRIVER)
                .arg(format!("--port={port}"))
                .arg(format!("--log-path={}", log.display()))
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("chromedriver");
            let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
            let t = Instant::now();
            while TcpStream::connect(addr).is_err() {
                assert!(
                    t.elapsed() < Duration::from_secs(30),
                    "chromedriver did not start"
                );
                std::thread::sleep(Duration::from_millis(50));
            }
            let r = http_json(addr, "POST", "/session", Some(&caps));
            if let Some(id) = r["value"]["sessionId"].as_str() {
                if attempt > 1 {
                    eprintln!("browser {name}: a session at attempt {attempt}, after {failures:?}");
                }
                return Browser {
                    driver,
                    addr,
                    session: id.to_string(),
                    profile,
                    log,
                    _turn: turn,
                };
            }
            let _ = driver.kill();
            let _ = driver.wait();
            eprintln!(
                "browser {name}: no WebDriver session at attempt {attempt}: {r}\nchromedriver's log ends:\n{}",
                tail(&log, 30)
            );
            failures.push(format!("attempt {attempt}: {r}"));
        }
        panic!("no WebDriver session: {failures:?}");
    }

    fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let r = http_json(
            self.addr,
            method,
            &format!("/session/{}{path}", self.session),
            body.as_ref(),
        );
        match r.get("value") {
            Some(v) if v["error"].is_null() => v.clone(),
            // The whole answer: WebDriver's error and message, or text that is not JSON.
            v => panic!(
                "WebDriver {method} {path}: {}\nchromedriver's log ends:\n{}",
                v.unwrap_or(&r),
                tail(&self.log, 30)
            ),
        }
    }

    fn go(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url })));
    }

    fn exec(&self, script: &str, args: Value) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": args})),
        )
    }

    fn find(&self, css: &str) -> String {
        let t = Instant::now();
        loop {
            let r = http_json(
                self.addr,
                "POST",
                &format!("/session/{}/element", self.session),
                Some(&json!({"using": "css selector", "value": css})),
            );
            if let Some(id) = r["value"]
                .as_object()
                .and_then(|o| o.values().next())
                .and_then(Value::as_str)
            {
                if r["value"]["error"].is_null() {
                    return id.to_string();
                }
            }
            assert!(t.elapsed() < Duration::from_secs(10), "no element {css}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn click(&self, css: &str) {
        let id = self.find(css);
        self.cmd("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    /// Drags with the mouse from the centre of one element to another's (by
    /// viewport coordinates: the board is redrawn under the pointer).
    fn drag(&self, from_css: &str, to_css: &str) {
        let centre = |css: &str| {
            let r = self.exec(
                "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)];",
                json!([css]),
            );
            (r[0].as_i64().unwrap(), r[1].as_i64().unwrap())
        };
        let (from, to) = (centre(from_css), centre(to_css));
        let actions = json!({"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [
                {"type": "pointerMove", "duration": 0, "origin": "viewport", "x": from.0, "y": from.1},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerMove", "duration": 200, "origin": "viewport", "x": to.0, "y": to.1},
                {"type": "pointerUp", "button": 0},
            ],
        }]});
        self.cmd("POST", "/actions", Some(actions));
        self.cmd("DELETE", "/actions", None);
    }

    fn type_into(&self, css: &str, text: &str) {
        let id = self.find(css);
        self.cmd("POST", &format!("/element/{id}/clear"), Some(json!({})));
        self.cmd(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({ "text": text })),
        );
    }

    fn wait(&self, what: &str, script: &str) -> Value {
        let t = Instant::now();
        loop {
            let v = self.exec(script, json!([]));
            if !v.is_null() && v != json!(false) {
                return v;
            }
            assert!(
                t.elapsed() < Duration::from_secs(30),
                "waited in vain for {what}; message: {}",
                self.exec(
                    "const t = (id) => { const e = document.getElementById(id); return e ? e.textContent : null; }; return [t('message'), t('conn'), t('status')].join(' | ');",
                    json!([])
                )
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn screenshot(&self, name: &str) {
        use base64::prelude::{Engine, BASE64_STANDARD};
        let b64 = self.cmd("GET", "/screenshot", None);
        let png = BASE64_STANDARD
            .decode(b64.as_str().unwrap_or(""))
            .unwrap_or_else(|e| panic!("screenshot {name}: not base64: {e}"));
        std::fs::write(out_dir().join(format!("{name}.png")), png).unwrap();
    }
}

/// What the page shows, read from its `data-` attributes.
const READ_PAGE: &str = r#"
const board = document.getElementById('board');
const cells = [...board.querySelectorAll('[data-square]')].map(c => {
  const p = c.querySelector('[data-piece]');
  return {sq: c.getAttribute('data-square'), hole: c.hasAttribute('data-hole'),
    target: c.hasAttribute('data-target'),
    piece: p ? p.getAttribute('data-piece') : null,
    facing: p ? p.getAttribute('data-facing') : null,
    held: p ? p.hasAttribute('data-held') : false,
    frozen: p ? p.hasAttribute('data-frozen') : false};
});
const hands = [...document.querySelectorAll('[data-hand]')].map(h => ({
  side: h.getAttribute('data-hand'), piece: h.getAttribute('data-piece'),
  count: Number(h.getAttribute('data-count'))}));
return {cells, hands, ply: Number(board.getAttribute('data-ply')),
  efen: board.getAttribute('data-efen'),
  status: document.getElementById('status').textContent,
  message: document.getElementById('message').textContent};
"#;

/// The page's board and hands are lancer's position, attribute by attribute.
fn check_page(page: &Value, pos: &Position, what: &str) {
    let v = pos.variant();
    assert_eq!(page["efen"], json!(pos.efen()), "{what}");
    let cells = page["cells"].as_array().unwrap();
    assert_eq!(
        cells.len(),
        v.width as usize * v.height as usize,
        "{what}: cells"
    );
    let held = pos.held(Color::White) | pos.held(Color::Black);
    for c in cells {
        let name = c["sq"].as_str().unwrap();
        let sq = parse_square(name).unwrap_or_else(|| panic!("{what}: square {name}"));
        let here = format!("{what}: {name}");
        assert_eq!(c["hole"], json!(!v.on_board(sq)), "{here}: hole");
        let p = pos.piece_at(sq);
        if !v.on_board(sq) || p.is_none() {
            assert!(c["piece"].is_null(), "{here}: {c}");
            continue;
        }
        assert_eq!(c["piece"], json!(v.piece_char(p).to_string()), "{here}");
        let facing =
            (p.kind() == Kind::Lancer).then(|| FACING_NAMES[(pos.facing_at(sq) & 7) as usize]);
        assert_eq!(c["facing"], json!(facing), "{here}: facing");
        assert_eq!(c["held"], json!(held & (1u64 << sq) != 0), "{here}: held");
        assert_eq!(
            c["frozen"],
            json!(pos.frozen() & (1u64 << sq) != 0),
            "{here}: frozen"
        );
    }
    let hands = page["hands"].as_array().unwrap();
    for c in [Color::White, Color::Black] {
        for k in 0..NKINDS {
            let kind = Kind::from_idx(k);
            let n = pos.hand(c, kind);
            let side = if c == Color::White { "w" } else { "b" };
            let entry = hands.iter().find(|h| {
                h["side"] == side
                    && v.has(kind)
                    && h["piece"]
                        == json!(v.piece_char(lancer::rules::Piece::new(kind, c)).to_string())
            });
            match entry {
                Some(e) => assert_eq!(e["count"], json!(n), "{what}: hand {side} {kind:?}"),
                None => assert_eq!(n, 0, "{what}: hand {side} {kind:?} missing"),
            }
        }
    }
    let _ = square(0, 0);
}

/// Plays `moves` on the page by clicks from `url`'s position, checking the targets
/// each click shows and the page after each move; returns the last position.
fn play(
    b: &Browser,
    base: &str,
    variants: &Variants,
    name: &str,
    query: &str,
    moves: &[&str],
) -> Position {
    b.go(&format!("{base}?{query}"));
    let q: std::collections::HashMap<String, String> = query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), v.replace("%20", " ").replace("%2F", "/")))
        .collect();
    let setup = q.get("setup").map(|s| s.parse().unwrap());
    let mut pos = start_position(
        variants,
        &q["variant"],
        q.get("fen").map(String::as_str),
        setup,
    )
    .expect("start");
    b.wait("the board", "return document.querySelector('#board [data-square]') !== null && document.getElementById('board').getAttribute('data-ply') === '0'");
    check_page(
        &b.exec(READ_PAGE, json!([])),
        &pos,
        &format!("{name} start"),
    );
    // Every file and rank is labelled, whatever the board's shape (issue 51: the
    // Royal Standard's corners are holes).
    let coords = b.exec(
        "return [[...document.querySelectorAll('#board [data-coord-file]')].map(e => e.textContent), [...document.querySelectorAll('#board [data-coord-rank]')].map(e => e.textContent)];",
        json!([]),
    );
    let v = pos.variant();
    let files: Vec<String> = (0..v.width)
        .map(|f| ((b'a' + f) as char).to_string())
        .collect();
    let ranks: Vec<String> = (1..=v.height).map(|r| r.to_string()).collect();
    assert_eq!(coords, json!([files, ranks]), "{name}: coordinates");
    for (i, text) in moves.iter().enumerate() {
        let what = format!("{name} move {} {text}", i + 1);
        eprintln!("{what}");
        let m = parse_any(&pos, text).unwrap_or_else(|e| panic!("{what}: {e}"));
        let (from, to) = click_squares(&pos, m);
        let to = square_name(to.expect("a move with a square"));
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let same: Vec<_> = list
            .iter()
            .filter(|&&o| {
                if m.move_type() == lancer::rules::MoveType::Drop {
                    o.move_type() == m.move_type() && o.kind() == m.kind() && o.to() == m.to()
                } else {
                    click_squares(&pos, o) == click_squares(&pos, m)
                }
            })
            .copied()
            .collect();
        match from {
            Some(f) => {
                b.click(&format!("#board [data-square=\"{}\"]", square_name(f)));
                // The targets shown are lancer's.
                let want: BTreeSet<String> = list
                    .iter()
                    .filter(|&&o| click_squares(&pos, o).0 == Some(f))
                    .filter_map(|&o| click_squares(&pos, o).1.map(square_name))
                    .collect();
                let page = b.exec(READ_PAGE, json!([]));
                let shown: BTreeSet<String> = page["cells"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|c| c["target"] == true)
                    .map(|c| c["sq"].as_str().unwrap().to_string())
                    .collect();
                assert_eq!(shown, want, "{what}: targets");
            }
            None => {
                let kind = m.kind().expect("a drop's piece");
                let letter = pos
                    .variant()
                    .piece_char(lancer::rules::Piece::new(kind, pos.side()));
                let side = if pos.side() == Color::White { "w" } else { "b" };
                b.click(&format!("[data-hand=\"{side}\"][data-piece=\"{letter}\"]"));
            }
        }
        b.click(&format!("#board [data-square=\"{to}\"]"));
        if same.len() > 1 {
            let choice = lancer::rules::notation::move_text(&pos, m);
            let offered = b.wait(
                "the chooser",
                "const c = document.getElementById('chooser'); return !c.hidden && [...c.querySelectorAll('[data-choice]')].map(x => x.getAttribute('data-choice'));",
            );
            assert_eq!(
                offered.as_array().unwrap().len(),
                same.len(),
                "{what}: choices {offered}"
            );
            b.screenshot(&format!("chooser-{}", name.replace(' ', "-")));
            b.click(&format!("[data-choice=\"{choice}\"]"));
        }
        pos.do_move(m);
        b.wait(
            &what,
            &format!(
                "return document.getElementById('board').getAttribute('data-ply') === '{}'",
                i + 1
            ),
        );
        check_page(&b.exec(READ_PAGE, json!([])), &pos, &what);
    }
    b.screenshot(&format!("desktop-{}", name.replace(' ', "-")));
    pos
}

/// Chess by clicks: a mate, with the result and its reason; an illegal move refused;
/// a move by drag, after which the refusal is gone.
fn chess_by_clicks_and_drag(b: &Browser, base: &str, variants: &Variants) {
    // Chess: a mate, with the result and its reason; an illegal move refused.
    play(
        b,
        base,
        variants,
        "chess",
        "variant=chess",
        &["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"],
    );
    let page = b.exec(READ_PAGE, json!([]));
    assert!(
        page["status"]
            .as_str()
            .unwrap()
            .contains("1-0 — White mates"),
        "{page}"
    );
    let checked = b.exec(
        "return [...document.querySelectorAll('#board [data-check]')].map(c => c.getAttribute('data-square'));",
        json!([]),
    );
    assert_eq!(checked, json!(["e8"]), "the mated king's square is marked");
    let result = b.exec(
        "return document.getElementById('status').getAttribute('data-result');",
        json!([]),
    );
    assert_eq!(result, json!("1-0"));
    b.go(&format!("{base}?variant=chess"));
    b.wait(
        "the board",
        "return document.querySelector('#board [data-square]') !== null",
    );
    b.click("#board [data-square=\"e2\"]");
    b.click("#board [data-square=\"e5\"]");
    b.wait(
        "the refusal",
        "return document.getElementById('message').textContent.includes('illegal')",
    );
    // A move by drag.
    b.drag("#board [data-square=\"g1\"]", "#board [data-square=\"f3\"]");
    let dragged = b.wait(
        "the dragged move",
        "return document.getElementById('board').getAttribute('data-ply') === '1' && document.getElementById('board').getAttribute('data-efen')",
    );
    assert_eq!(
        dragged,
        json!("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1")
    );
    // Issue 51: the refusal went away once a move succeeded.
    let message = b.exec(
        "return document.getElementById('message').textContent",
        json!([]),
    );
    assert_eq!(message, json!(""), "an old error stays on screen");
}

/// Full Cavalry (castling with a facing, a lancer's turn, a promotion to a lancer) and
/// 8-Piece Chess (lancers turn, a jailer holds a king whose only move is the pass).
fn lancers_and_jailers_by_clicks(b: &Browser, base: &str, variants: &Variants) {
    // Full Cavalry: castling with the lancer's facing, then a lancer's turn.
    play(
        b,
        base,
        variants,
        "fullcavalry",
        "variant=fullcavalry",
        &[
            "e2e4", "e7e5", "g1f3", "g8f6", "f1c4", "f8c5", "e1g1n", "b8c6", "f1f5nw",
        ],
    );
    b.screenshot("fullcavalry");
    // A promotion to a lancer, which asks for the facing.
    play(
        b,
        base,
        variants,
        "fullcavalry promotion",
        "variant=fullcavalry&fen=4k3/1P6/8/8/8/8/8/4K3%20w%20-%20-%200%201",
        &["b7b8lse"],
    );

    // 8-Piece Chess: lancers turn; a jailer holds.
    play(
        b,
        base,
        variants,
        "eightpiece",
        "variant=eightpiece",
        &["b1e4nw", "b8d6sw", "e2e3"],
    );
    b.screenshot("eightpiece");
    // A king held by a jailer: marked, and its only move is the pass.
    let held = play(
        b,
        base,
        variants,
        "eightpiece held",
        "variant=eightpiece&fen=4k3/4J3/8/8/8/8/8/4K3%20b%20-%20-%200%201",
        &[],
    );
    assert!(held.held(Color::Black) != 0);
    b.wait("the held mark", "return document.querySelector('[data-square=\"e8\"] [data-held]') !== null && !document.getElementById('pass').disabled");
    // Issue 51: a click on the held king says why at once.
    b.click("#board [data-square=\"e8\"]");
    b.wait(
        "why the king cannot move",
        "return document.getElementById('message').textContent.includes('held by a jailer')",
    );
    b.click("#pass");
    b.wait(
        "the pass",
        "return document.getElementById('board').getAttribute('data-ply') === '1'",
    );
}

/// The Royal Standard (a displacement and its arrow, windmills) and Lighthouse (a
/// capture puts a pawn in hand, then it is dropped).
fn displacements_and_drops_by_clicks(b: &Browser, base: &str, variants: &Variants) {
    // The Royal Standard: a displacement (the bearer's square is asked), windmills.
    play(
        b,
        base,
        variants,
        "royalstandard",
        "variant=royalstandard",
        &["a2b1,b1c2", "d5c5", "d2e2"],
    );
    let shown = b.exec(
        "const a = document.querySelector('[data-displaced-from]'); return a && [a.getAttribute('data-displaced-from'), a.getAttribute('data-displaced-to')];",
        json!([]),
    );
    assert!(shown.is_null(), "the last move displaced nothing: {shown}");
    b.click("#prev");
    b.click("#prev");
    let shown = b.wait(
        "the displacement's arrow",
        "const a = document.querySelector('[data-displaced-from]'); return a && [a.getAttribute('data-displaced-from'), a.getAttribute('data-displaced-to')];",
    );
    assert_eq!(shown, json!(["b1", "c2"]));
    b.screenshot("royalstandard");

    // Lighthouse: a capture puts a pawn in hand, then it is dropped.
    play(
        b,
        base,
        variants,
        "lighthouse",
        "variant=lighthouse",
        &["a2a4", "b7b5", "a4b5", "c7c6", "P@a3"],
    );
    b.screenshot("lighthouse");
}

/// Against lancer, which plays White's first move and turns the board for Black;
/// then the analysis of a position.
fn against_lancer_and_analysis(b: &Browser, base: &str) {
    // Against lancer: it plays White's first move; then the analysis of a position.
    b.go(&format!("{base}?variant=fullcavalry"));
    b.wait(
        "the board",
        "return document.querySelector('#board [data-square]') !== null",
    );
    b.click("#mode option[value=\"play\"]");
    b.click("#human option[value=\"b\"]");
    b.type_into("#movetime", "0.2");
    b.click("#apply");
    b.wait(
        "lancer's move",
        "return document.getElementById('board').getAttribute('data-ply') === '1'",
    );
    // Issue 51: playing Black turns the board and the evaluation bar.
    let turned = b.exec(
        "const r = (s) => document.querySelector(`#board [data-square=\"${s}\"]`).getBoundingClientRect(); return [document.getElementById('board').getAttribute('data-orientation'), document.getElementById('evalbar').getAttribute('data-orientation'), r('a1').top < r('a8').top, r('a1').left > r('h1').left];",
        json!([]),
    );
    assert_eq!(
        turned,
        json!(["b", "b", true, true]),
        "the board turns for Black"
    );
    b.screenshot("desktop-black");
    b.go(&format!(
        "{base}?variant=fullcavalry&moves=e2e4,e7e5,g1f3,g8f6,f1c4,f8c5,e1g1n"
    ));
    b.wait(
        "the board",
        "return document.getElementById('board').getAttribute('data-ply') === '7'",
    );
    b.click("#analyse");
    b.wait("a best-move arrow", "return document.querySelector('[data-best]') !== null && document.querySelectorAll('#lines li').length >= 2");
    std::thread::sleep(Duration::from_millis(1500));
    b.screenshot("analysis");
    b.click("#stop");
}

#[test]
fn the_page_plays_every_variant_by_clicks() {
    if !common::tools_present(
        "the_page_plays_every_variant_by_clicks",
        &[CHROMIUM, CHROMEDRIVER],
        "apt-get install chromium chromium-driver",
    ) {
        return;
    }
    let variants = Variants::builtin();
    let (addr, _server) =
        lancer::serve::start(variants.clone(), "127.0.0.1", 0).expect("server starts");
    let base = format!("http://{addr}/");
    let b = Browser::start();

    chess_by_clicks_and_drag(&b, &base, &variants);

    // Chess960 and Randomized 8-Piece from numbered setups.
    play(
        &b,
        &base,
        &variants,
        "fischerandom",
        "variant=fischerandom&setup=0",
        &["e2e4", "e7e5", "d2d4", "d7d5"],
    );
    play(
        &b,
        &base,
        &variants,
        "eightpiecerandom",
        "variant=eightpiecerandom&setup=7482",
        &["e2e4", "e7e5", "d2d4"],
    );
    lancers_and_jailers_by_clicks(&b, &base, &variants);
    displacements_and_drops_by_clicks(&b, &base, &variants);
    against_lancer_and_analysis(&b, &base);
}

/// A page of another origin, served by a one-page HTTP server of its own: it tries
/// to open `target`'s WebSocket and to read its API, and keeps what happened in
/// `window.result`.
fn other_origin(target: SocketAddr) -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let page = format!(
        r#"<!DOCTYPE html><html><body><script>
window.result = {{ws: "pending", api: "pending"}};
const ws = new WebSocket("ws://{target}/ws");
ws.onopen = () => {{ result.ws = "open"; }};
ws.onmessage = (e) => {{ result.ws = "read " + e.data.slice(0, 20); }};
ws.onerror = () => {{ if (result.ws === "pending") result.ws = "refused"; }};
fetch("http://{target}/api/status").then((r) => r.text()).then((t) => {{ result.api = "read " + t; }}, () => {{ result.api = "refused"; }});
</script></body></html>"#
    );
    std::thread::spawn(move || {
        for s in listener.incoming() {
            let Ok(mut s) = s else { continue };
            let mut buf = [0u8; 4096];
            let _ = s.read(&mut buf);
            let _ = write!(
                s,
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
                page.len()
            );
        }
    });
    addr
}

fn result_of(b: &Browser) -> Value {
    b.wait(
        "the page's attempts",
        "return window.result && result.ws !== 'pending' && result.api !== 'pending' && result;",
    )
}

/// A tab of the server kept open outside the browser (tungstenite).
type Tab = tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>;

fn tab(addr: SocketAddr) -> Tab {
    let (ws, _) = tungstenite::connect(format!("ws://{addr}/ws")).expect("websocket");
    ws
}

fn tell(ws: &mut Tab, v: Value) {
    ws.send(tungstenite::Message::Text(v.to_string().into()))
        .unwrap();
    loop {
        if let tungstenite::Message::Text(t) = ws.read().unwrap() {
            if t.as_str().contains("\"type\":\"state\"") {
                return;
            }
        }
    }
}

fn ply(b: &Browser) -> Value {
    b.exec(
        "return document.getElementById('board').getAttribute('data-ply')",
        json!([]),
    )
}

/// Another origin can neither open the socket nor read the API, nor can a page of
/// a name rebound to this machine; the page's own origin can.
fn only_the_own_origin_is_served(b: &Browser, addr: SocketAddr, base: &str) {
    // Another origin can neither open the socket nor read the API.
    let evil = other_origin(addr);
    b.go(&format!("http://{evil}/"));
    assert_eq!(result_of(b), json!({"ws": "refused", "api": "refused"}));
    // Nor can a page of a name rebound to this machine.
    b.go(&format!("http://evil.example:{}/", addr.port()));
    let body = b.exec("return document.body.innerText", json!([]));
    assert!(
        body.as_str()
            .unwrap()
            .contains("does not answer to the name"),
        "{body}"
    );
    b.exec(
        r#"window.result = {ws: "pending", api: "pending"};
const ws = new WebSocket("ws://" + location.host + "/ws");
ws.onopen = () => { result.ws = "open"; };
ws.onerror = () => { if (result.ws === "pending") result.ws = "refused"; };
fetch("/api/status").then((r) => { result.api = "status " + r.status; }, () => { result.api = "refused"; });"#,
        json!([]),
    );
    assert_eq!(result_of(b), json!({"ws": "refused", "api": "status 403"}));
    // The page's own origin can.
    b.go(&format!("{base}?variant=chess"));
    b.wait(
        "the board",
        "return document.querySelector('#board [data-square]') !== null",
    );
    b.exec(
        r#"window.result = {ws: "pending", api: "pending"};
const ws = new WebSocket("ws://" + location.host + "/ws");
ws.onopen = () => { result.ws = "open"; ws.close(); };
ws.onerror = () => { if (result.ws === "pending") result.ws = "refused"; };
fetch("/api/status").then((r) => { result.api = "status " + r.status; }, () => { result.api = "refused"; });"#,
        json!([]),
    );
    assert_eq!(result_of(b), json!({"ws": "open", "api": "status 200"}));
    let sound = b.exec("return document.getElementById('sound').checked", json!([]));
    assert_eq!(sound, json!(false), "the move sound is off by default");
}

/// A move from an earlier position starts a variation and the game stays; keys step
/// along the line shown.
fn a_variation_and_keys(b: &Browser, base: &str) {
    // A move from an earlier position starts a variation; the game stays.
    b.go(&format!("{base}?variant=chess&moves=e2e4,e7e5,g1f3"));
    b.wait(
        "the game",
        "return document.getElementById('board').getAttribute('data-ply') === '3'",
    );
    b.click("#moves .mv[data-ply=\"2\"]");
    b.wait(
        "the view",
        "return document.getElementById('board').getAttribute('data-ply') === '2'",
    );
    b.click("#board [data-square=\"f1\"]");
    b.click("#board [data-square=\"c4\"]");
    let list = b.wait(
        "the variation",
        "const v = document.querySelector('#moves .variation'); return v && [document.querySelector('#moves .main').textContent, v.textContent];",
    );
    let text = list[0].as_str().unwrap().to_string();
    assert!(
        text.contains("2. Nf3") && list[1].as_str().unwrap().contains("Bc4"),
        "{list}"
    );
    assert_eq!(ply(b), json!("3"));
    // Keys: Home, End, and the arrows along the line shown.
    let key = |k: &str| {
        b.cmd(
            "POST",
            "/actions",
            Some(json!({"actions": [{"type": "key", "id": "kb", "actions": [
            {"type": "keyDown", "value": k}, {"type": "keyUp", "value": k}]}]})),
        );
    };
    key("\u{E011}");
    b.wait(
        "Home",
        "return document.getElementById('board').getAttribute('data-ply') === '0'",
    );
    key("\u{E014}");
    b.wait(
        "ArrowRight",
        "return document.getElementById('board').getAttribute('data-ply') === '1'",
    );
    key("\u{E010}");
    b.wait("End", "return document.getElementById('board').getAttribute('data-ply') === '3' && document.querySelector('#moves .mv.current').textContent === 'Nf3'");
    key("\u{E012}");
    b.wait(
        "ArrowLeft",
        "return document.getElementById('board').getAttribute('data-ply') === '2'",
    );
    b.screenshot("desktop-variation");
}

/// Lancer's move waits for a free slot, and comes when one frees.
fn lancer_waits_for_a_free_slot(b: &Browser, addr: SocketAddr, base: &str) {
    // Lancer's move waits for a free slot, and comes when one frees.
    let mut busy: Vec<Tab> = (0..lancer::serve::MAX_SEARCHES)
        .map(|_| tab(addr))
        .collect();
    for ws in &mut busy {
        tell(ws, json!({"op": "analyse", "on": true}));
    }
    b.go(&format!("{base}?variant=lighthouse"));
    b.wait(
        "the board",
        "return document.getElementById('board').getAttribute('data-ply') === '0'",
    );
    b.click("#mode option[value=\"play\"]");
    b.click("#human option[value=\"b\"]");
    b.type_into("#movetime", "0.1");
    b.click("#apply");
    b.wait(
        "the page says it waits",
        "return document.getElementById('status').hasAttribute('data-waiting') && document.getElementById('status').textContent.includes('waiting for a free engine')",
    );
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(ply(b), json!("0"));
    tell(&mut busy[0], json!({"op": "stop"}));
    b.wait(
        "lancer's move",
        "return document.getElementById('board').getAttribute('data-ply') === '1'",
    );
    drop(busy);
}

/// The review: a graph point a position, the blunder marked, the summary; a point of
/// the graph goes to its move.
fn the_review(b: &Browser, base: &str) {
    // The review: a graph point a position, the blunder marked, the summary.
    b.go(&format!(
        "{base}?variant=chess&moves=e4,e5,Qh5,Nc6,Bc4,Nf6,Qxf7%23&review=1"
    ));
    b.wait(
        "the review",
        "return document.getElementById('board').hasAttribute('data-reviewed')",
    );
    let points = b.exec(
        "return [...document.querySelectorAll('#graph [data-eval-ply]')].map(p => [Number(p.getAttribute('data-eval-ply')), p.getAttribute('data-eval')]);",
        json!([]),
    );
    let points = points.as_array().unwrap();
    assert_eq!(points.len(), 8, "{points:?}");
    for (i, p) in points.iter().enumerate() {
        assert_eq!(p[0], json!(i));
        let e = p[1].as_str().unwrap();
        assert!(
            e.starts_with('#') || e.parse::<f64>().is_ok() || e == "1-0",
            "{e}"
        );
    }
    let marked = b.exec(
        "return [...document.querySelectorAll('#moves [data-nag]')].filter(m => m.closest('.main') && !m.closest('.variation')).map(m => [m.getAttribute('data-ply'), m.getAttribute('data-nag')]);",
        json!([]),
    );
    assert!(
        marked.as_array().unwrap().contains(&json!(["6", "??"])),
        "{marked}"
    );
    let graph = b.exec("return document.getElementById('graph').hasAttribute('data-reviewed') && document.getElementById('review-summary').textContent", json!([]));
    // Each side's summary; Black's names the blunder (the rest depends on the
    // depth the machine reaches in the time).
    let summary = graph.as_str().unwrap();
    assert!(
        summary.starts_with("White: ") && summary.contains("Black: "),
        "{graph}"
    );
    let black = summary.split("Black: ").nth(1).unwrap();
    assert!(black.contains(" 1 blunder (??)"), "{graph}");
    std::thread::sleep(Duration::from_millis(300));
    b.screenshot("review");
    // A point of the graph goes to its move.
    b.click("#graph [data-eval-ply=\"3\"]");
    b.wait(
        "the graph's move",
        "return document.getElementById('board').getAttribute('data-ply') === '3'",
    );
    let url = b.exec("return location.search", json!([]));
    assert!(url.as_str().unwrap().contains("review=1"), "{url}");
}

/// Sixteen tabs open: the page says why, still shows the board, and comes in once a
/// tab closes.
fn the_page_waits_for_a_free_tab(b: &Browser, addr: SocketAddr, base: &str) {
    // Sixteen tabs open: the page says why, still shows the board, and comes in
    // once a tab closes.
    b.go("about:blank");
    let t = Instant::now();
    while http_json(addr, "GET", "/api/status", None)["sessions"] != 0 {
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "the page's tab did not close: {}",
            http_json(addr, "GET", "/api/status", None)
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    let mut full: Vec<Tab> = (0..lancer::serve::MAX_SESSIONS)
        .map(|_| tab(addr))
        .collect();
    assert_eq!(
        http_json(addr, "GET", "/api/status", None)["sessions"],
        lancer::serve::MAX_SESSIONS
    );
    b.go(&format!("{base}?variant=royalstandard&moves=a2b1,b1c2"));
    b.wait(
        "the reason",
        "return document.getElementById('conn').textContent.includes('close a tab') && document.querySelector('#board [data-square]') !== null",
    );
    full.pop();
    b.wait("the page comes in", "return document.getElementById('conn').textContent === '' && document.getElementById('board').getAttribute('data-ply') === '1'");
    drop(full);
}

/// Issue 51 in a real browser: another origin and a rebound name are refused; a
/// variation is kept; lancer's move comes once the slots free; the page waits for
/// a free tab with the server's reason and comes back after a restart; keys step
/// through the game; the review draws its graph and marks the blunder.
#[test]
fn the_page_is_safe_keeps_variations_and_reviews() {
    if !common::tools_present(
        "the_page_is_safe_keeps_variations_and_reviews",
        &[CHROMIUM, CHROMEDRIVER],
        "apt-get install chromium chromium-driver",
    ) {
        return;
    }
    let variants = Variants::builtin();
    let (addr, _server) =
        lancer::serve::start(variants.clone(), "127.0.0.1", 0).expect("server starts");
    let base = format!("http://{addr}/");
    let b = Browser::start();

    only_the_own_origin_is_served(&b, addr, &base);
    a_variation_and_keys(&b, &base);
    lancer_waits_for_a_free_slot(&b, addr, &base);
    the_review(&b, &base);
    the_page_waits_for_a_free_tab(&b, addr, &base);
}

/// Issue 51: the page comes back by itself after the server restarts, with the
/// game it showed.
#[test]
fn the_page_reconnects_after_a_restart() {
    if !common::tools_present(
        "the_page_reconnects_after_a_restart",
        &[CHROMIUM, CHROMEDRIVER],
        "apt-get install chromium chromium-driver",
    ) {
        return;
    }
    let serve = |port: u16| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_lancer"))
            .args(["serve", "--port", &port.to_string()])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let addr = common::served_address(c.stdout.take().unwrap());
        (c, addr)
    };
    let (mut first, addr) = serve(0);
    let b = Browser::sized("restart", 1000, 800, false);
    b.go(&format!(
        "http://{addr}/?variant=fullcavalry&moves=e2e4,e7e5"
    ));
    b.wait(
        "the game",
        "return document.getElementById('board').getAttribute('data-ply') === '2'",
    );
    first.kill().unwrap();
    first.wait().unwrap();
    b.wait(
        "the lost connection",
        "return document.getElementById('conn').hasAttribute('data-down') && document.getElementById('conn').textContent.includes('trying again')",
    );
    let (mut second, _) = serve(addr.port());
    b.wait(
        "the reconnection",
        "return document.getElementById('conn').textContent === '' && document.getElementById('board').getAttribute('data-ply') === '2' && document.getElementById('board').getAttribute('data-variant') === 'fullcavalry'",
    );
    let _ = second.kill();
    let _ = second.wait();
}

/// Issue 51: on a 390 x 844 phone the page is no wider than the screen and the
/// whole board shows, in every variant; screenshots of each.
#[test]
fn the_page_fits_a_phone() {
    if !common::tools_present(
        "the_page_fits_a_phone",
        &[CHROMIUM, CHROMEDRIVER],
        "apt-get install chromium chromium-driver",
    ) {
        return;
    }
    let (addr, _server) =
        lancer::serve::start(Variants::builtin(), "127.0.0.1", 0).expect("server starts");
    let b = Browser::sized("phone", 390, 844, true);
    for (v, moves) in [
        ("chess", "e2e4,e7e5"),
        ("fischerandom", "e2e4"),
        ("fullcavalry", "e2e4,e7e5,g1f3"),
        ("eightpiece", "b1e4nw"),
        ("eightpiecerandom", "e2e4"),
        ("royalstandard", "a2b1,b1c2"),
        ("lighthouse", "a2a4,b7b5,a4b5"),
    ] {
        b.go(&format!("http://{addr}/?variant={v}&moves={moves}"));
        b.wait(v, "return document.getElementById('board').getAttribute('data-ply') !== '0' && document.querySelector('#board [data-square]') !== null");
        std::thread::sleep(Duration::from_millis(200));
        let fit = b.exec(
            "const r = document.getElementById('board').getBoundingClientRect(); return [document.documentElement.scrollWidth, innerWidth, r.left, r.right, r.top, r.bottom, innerHeight];",
            json!([]),
        );
        let f: Vec<f64> = fit
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert!(
            f[0] <= f[1],
            "{v}: the page is {} px wide on a {} px screen",
            f[0],
            f[1]
        );
        assert!(
            f[2] >= 0.0 && f[3] <= f[1] && f[4] >= 0.0 && f[5] <= f[6],
            "{v}: the board is at {fit}"
        );
        assert!(f[3] - f[2] > 300.0, "{v}: the board fills the width: {fit}");
        b.screenshot(&format!("phone-{v}"));
    }
}
