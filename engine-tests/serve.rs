//! `lancer serve` (docs/protocols.md, `lancer serve`): the command prints its URL and
//! serves the page; the HTTP API answers and refuses bad input with a status; the
//! WebSocket plays games, one per tab, bounded in number; lancer answers a move; a
//! search stops when its tab goes. The browser test is `engine-tests/serve_browser.rs`.

mod common;

use lancer::rules::Variants;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

type Ws = tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>;

fn server() -> SocketAddr {
    let (addr, _thread) =
        lancer::serve::start(Variants::builtin(), "127.0.0.1", 0).expect("server starts");
    addr
}

/// A GET (or any request line) over a fresh connection: the status and the body.
fn request(addr: SocketAddr, method: &str, path: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    request(addr, "GET", path)
}

fn get_json(addr: SocketAddr, path: &str) -> (u16, Value) {
    let (status, body) = get(addr, path);
    let v = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"));
    (status, v)
}

fn connect(addr: SocketAddr) -> Ws {
    let (ws, _) = tungstenite::connect(format!("ws://{addr}/ws")).expect("websocket");
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_ref() {
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    }
    ws
}

fn send(ws: &mut Ws, v: Value) {
    ws.send(tungstenite::Message::Text(v.to_string().into()))
        .expect("send");
}

/// Messages until a state message (returned with the errors seen before it).
fn until_state(ws: &mut Ws) -> (Value, Vec<String>) {
    let mut errors = Vec::new();
    loop {
        let m = ws.read().expect("read");
        if let tungstenite::Message::Text(t) = m {
            let v: Value = serde_json::from_str(t.as_str()).expect("json");
            match v["type"].as_str() {
                Some("state") => return (v, errors),
                Some("error") => errors.push(v["message"].as_str().unwrap_or("").to_string()),
                _ => {}
            }
        }
    }
}

fn ask(ws: &mut Ws, v: Value) -> (Value, Vec<String>) {
    send(ws, v);
    until_state(ws)
}

/// Asks for the game's PGN and waits for it.
fn ask_pgn(ws: &mut Ws) -> String {
    send(ws, json!({"op": "pgn"}));
    loop {
        if let tungstenite::Message::Text(t) = ws.read().unwrap() {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == "pgn" {
                return v["text"].as_str().unwrap().to_string();
            }
        }
    }
}

fn status(addr: SocketAddr) -> Value {
    get_json(addr, "/api/status").1
}

/// A child process killed when the test ends, passed or not.
struct Child(std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn serve_prints_its_url_and_serves_the_page() {
    let mut child = Child(
        std::process::Command::new(env!("CARGO_BIN_EXE_lancer"))
            .args(["serve", "--port", "0"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("lancer serve"),
    );
    let mut line = String::new();
    BufReader::new(child.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .strip_prefix("lancer serve: http://")
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .trim_end_matches('/')
        .to_string();
    assert!(url.starts_with("127.0.0.1:"), "{url}");
    let addr: SocketAddr = url.parse().unwrap();
    let (st, page) = get(addr, "/?variant=lighthouse");
    assert_eq!(st, 200);
    assert!(page.contains("<svg id=\"board\""), "{page}");
    for asset in ["/", "/app.js", "/style.css"] {
        let (st, body) = get(addr, asset);
        assert_eq!(st, 200, "{asset}");
        for outside in ["src=\"http", "href=\"http", "https://", "url(http", "//cdn"] {
            assert!(
                !body.contains(outside),
                "{asset} loads nothing from outside"
            );
        }
    }
}

#[test]
fn default_port_and_host_are_documented() {
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_lancer"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(text.contains("[default: 127.0.0.1]"), "{text}");
    let port = lancer::serve::DEFAULT_PORT.to_string();
    assert!(text.contains(&format!("[default: {port}]")), "{text}");
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/protocols.md")).unwrap();
    assert!(
        docs.contains(&format!("127.0.0.1:{port}")),
        "protocols.md names the default port"
    );
}

#[test]
fn http_api_answers_and_refuses_bad_input() {
    let addr = server();
    let (st, vs) = get_json(addr, "/api/variants");
    assert_eq!(st, 200);
    let names: Vec<&str> = vs
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    for n in common::VARIANTS {
        assert!(names.contains(&n), "{n} in {names:?}");
    }

    // A displacement, by its move text (with its comma) in the URL.
    let (st, p) = get_json(
        addr,
        "/api/position?variant=royalstandard&moves=a2b1,b1c2,d6e5",
    );
    assert_eq!(st, 200, "{p}");
    assert_eq!(p["plies"], 2);
    assert_eq!(p["holes"].as_array().unwrap().len(), 4);
    let (_, p) = get_json(addr, "/api/position?variant=royalstandard&moves=a2b1,b1c2");
    assert_eq!(p["last"]["displaced"], json!({"from": "b1", "to": "c2"}));
    let frozen: Vec<&Value> = p["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["frozen"] == true)
        .collect();
    assert_eq!(frozen.len(), 1);
    assert_eq!(frozen[0]["square"], "c2");

    // SAN, a numbered setup, a lancer's facing, a held piece.
    let (st, p) = get_json(
        addr,
        "/api/position?variant=fischerandom&setup=0&moves=e4,e5",
    );
    assert_eq!(st, 200, "{p}");
    assert!(p["start"].as_str().unwrap().starts_with("bbqnnrkr/"), "{p}");
    let (_, p) = get_json(addr, "/api/position?variant=eightpiece");
    let lancer = p["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["square"] == "b1")
        .unwrap();
    assert_eq!(lancer["piece"], "L");
    assert_eq!(lancer["facing"], "ne");
    let (_, p) = get_json(
        addr,
        "/api/position?variant=eightpiece&fen=4k3/4J3/8/8/8/8/8/4K3%20b%20-%20-%200%201",
    );
    let king = p["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["square"] == "e8")
        .unwrap();
    assert_eq!(king["held"], true);
    assert_eq!(p["legal"].as_array().unwrap().len(), 1);
    assert_eq!(p["legal"][0]["pass"], true);

    // Bad input: a clear error and a status.
    for (path, want_status, want) in [
        ("/api/position?variant=nosuch", 400, "unknown variant"),
        ("/api/position?variant=chess&fen=xyz", 400, "bad EFEN"),
        ("/api/position?variant=chess&moves=e2e5", 400, "illegal"),
        ("/api/position?variant=chess&setup=3", 400, "no numbered setups"),
        ("/api/position?variant=fischerandom&setup=99999", 400, "does not exist"),
        ("/api/position?variant=fischerandom&setup=x", 400, "number"),
        ("/api/position?variant=eightpiece&fen=4k3/4J3/8/8/8/8/8/4K3%20b%20-%20-%200%201&moves=e8d8", 400, "held"),
        ("/../Cargo.toml", 404, "nothing is served"),
        ("/etc/passwd", 404, "nothing is served"),
        ("/src/serve/assets/app.js", 404, "nothing is served"),
    ] {
        let (st, body) = get(addr, path);
        assert_eq!(st, want_status, "{path}: {body}");
        assert!(body.contains(want), "{path}: {body}");
    }
    // A huge request is refused, and the server goes on.
    let long = format!("/api/position?variant=chess&moves={}", "e2e4,".repeat(8000));
    let (st, _) = get(addr, &long);
    assert!(st == 414 || st == 431 || st == 400, "huge request: {st}");
    let (st, _) = request(addr, "POST", "/api/position");
    assert_eq!(st, 405);
    let (st, _) = get(addr, "/api/status");
    assert_eq!(st, 200, "the server still answers");
}

#[test]
fn websocket_plays_a_game_and_refuses_illegal_moves() {
    let addr = server();
    let mut ws = connect(addr);
    let (s, e) = ask(&mut ws, json!({"op": "new", "variant": "fullcavalry"}));
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(s["variant"], "fullcavalry");
    assert_eq!(s["side"], "w");
    for m in ["e2e4", "e7e5", "Nf3", "g8f6", "f1c4", "f8c5"] {
        let (_, e) = ask(&mut ws, json!({"op": "move", "move": m}));
        assert!(e.is_empty(), "{m}: {e:?}");
    }
    // Castling offers the lancer's five facings.
    let (s, _) = ask(&mut ws, json!({"op": "state"}));
    let castles: Vec<&str> = s["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["from"] == "e1" && m["to"] == "g1")
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(castles.len(), 5, "{castles:?}");
    let (_, e) = ask(&mut ws, json!({"op": "move", "move": "e1g1z"}));
    assert_eq!(e.len(), 1, "an unknown move is refused");
    let (_, e) = ask(&mut ws, json!({"op": "move", "move": "e8g8"}));
    assert!(e[0].contains("White's turn"), "{e:?}");
    let (s, e) = ask(&mut ws, json!({"op": "move", "move": "e1g1n"}));
    assert!(e.is_empty(), "{e:?}");
    let lancer = s["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["square"] == "f1")
        .unwrap()
        .clone();
    assert_eq!(lancer["facing"], "n");
    assert_eq!(s["last"]["squares"].as_array().unwrap().len(), 4);

    // Stepping back and forth, and undo.
    let (s, _) = ask(&mut ws, json!({"op": "view", "ply": 2}));
    assert_eq!(s["ply"], 2);
    assert_eq!(s["plies"], 7);
    assert!(
        s["legal"].as_array().unwrap().is_empty(),
        "only the end is played from"
    );
    let (s, _) = ask(&mut ws, json!({"op": "view", "ply": 99}));
    assert_eq!(s["ply"], 7);
    let (s, _) = ask(&mut ws, json!({"op": "undo"}));
    assert_eq!(s["plies"], 6);

    // PGN out and back in.
    let pgn = ask_pgn(&mut ws);
    assert!(pgn.contains("[Variant \"fullcavalry\"]"), "{pgn}");
    assert!(pgn.contains("1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 *"), "{pgn}");
    let report = lancer::rules::notation::pgn::check(&pgn, &Variants::builtin());
    assert_eq!(report, Ok(1), "{pgn}");
    let (_, _) = ask(&mut ws, json!({"op": "new", "variant": "chess"}));
    let (s, e) = ask(&mut ws, json!({"op": "loadpgn", "pgn": pgn}));
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(s["variant"], "fullcavalry");
    assert_eq!(s["plies"], 6);

    // A result with its reason, and resignation.
    let (s, _) = ask(
        &mut ws,
        json!({"op": "new", "variant": "chess", "moves": ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]}),
    );
    assert_eq!(s["result"], json!({"score": "1-0", "text": "White mates"}));
    let (_, e) = ask(&mut ws, json!({"op": "move", "move": "e8f7"}));
    assert!(e[0].contains("game is over"), "{e:?}");
    let (s, _) = ask(&mut ws, json!({"op": "new", "variant": "lighthouse"}));
    let (s2, _) = ask(&mut ws, json!({"op": "resign"}));
    assert!(s["result"].is_null());
    assert_eq!(
        s2["result"],
        json!({"score": "0-1", "text": "White resigns"})
    );

    // Bad messages: an error each, and the tab goes on.
    for bad in [
        json!({"op": "new", "variant": "nosuch"}),
        json!({"op": "new", "variant": "chess", "fen": "8/8/8 w"}),
        json!({"op": "new", "variant": "chess", "moves": ["e2e4", "e2e4"]}),
        json!({"op": "fly"}),
        json!({"nothing": 1}),
        json!({"op": "move"}),
        json!({"op": "view"}),
        json!({"op": "settings", "mode": "dance"}),
        json!({"op": "loadpgn", "pgn": "1. e4 Ke7 2. xx"}),
    ] {
        let (_, e) = ask(&mut ws, bad.clone());
        assert_eq!(e.len(), 1, "{bad}: {e:?}");
    }
    ws.send(tungstenite::Message::Text("not json".into()))
        .unwrap();
    loop {
        if let tungstenite::Message::Text(t) = ws.read().unwrap() {
            assert!(t.as_str().contains("not a JSON message"), "{t}");
            break;
        }
    }
    // A message over the limit closes the tab, not the server.
    let huge = json!({"op": "loadpgn", "pgn": "x".repeat(400_000)});
    let _ = ws.send(tungstenite::Message::Text(huge.to_string().into()));
    let mut closed = false;
    for _ in 0..10 {
        match ws.read() {
            Ok(tungstenite::Message::Close(_)) | Err(_) => {
                closed = true;
                break;
            }
            Ok(_) => {}
        }
    }
    assert!(closed, "an oversized message ends the tab");
    let mut ws = connect(addr);
    let (s, _) = ask(&mut ws, json!({"op": "state"}));
    assert_eq!(s["variant"], "chess");
}

#[test]
fn lancer_answers_a_move_at_a_level() {
    let addr = server();
    let mut ws = connect(addr);
    ask(&mut ws, json!({"op": "new", "variant": "eightpiece"}));
    let (s, e) = ask(
        &mut ws,
        json!({"op": "settings", "mode": "play", "human": "b", "skill": 5, "movetime": 100}),
    );
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(s["thinking"], true);
    let (s, e) = until_state(&mut ws);
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(s["plies"], 1, "lancer played White's first move");
    assert_eq!(s["side"], "b");
    // The person's move, then lancer's again, now on a clock.
    let (s, _) = ask(
        &mut ws,
        json!({"op": "settings", "mode": "play", "human": "w", "elo": 1500, "base": 60000, "inc": 100}),
    );
    assert_eq!(s["elo"], 1500);
    let clocks = s["clocks"].as_array().unwrap();
    assert_eq!(clocks[0], 60000);
    let (s, _) = until_state(&mut ws);
    assert_eq!(s["plies"], 2);
    let m = s["legal"][0]["text"].as_str().unwrap().to_string();
    let (s, e) = ask(&mut ws, json!({"op": "move", "move": m}));
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(s["thinking"], true);
    let (s, _) = until_state(&mut ws);
    assert_eq!(s["plies"], 4);
    assert!(
        s["clocks"][1].as_i64().unwrap() <= 60200,
        "two moves with 100 ms increments"
    );
    let pgn = ask_pgn(&mut ws);
    assert!(pgn.contains("[Black \"lancer (Elo 1500)\"]"), "{pgn}");
    assert!(pgn.contains("[TimeControl \"60+0.1\"]"), "{pgn}");
}

#[test]
fn analysis_reports_lines_and_stops_when_the_tab_closes() {
    let addr = server();
    let mut ws = connect(addr);
    ask(&mut ws, json!({"op": "new", "variant": "royalstandard"}));
    let (s, _) = ask(&mut ws, json!({"op": "analyse", "on": true, "multipv": 2}));
    assert_eq!(s["analysing"], true);
    let mut seen = [false; 2];
    while !(seen[0] && seen[1]) {
        if let tungstenite::Message::Text(t) = ws.read().unwrap() {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == "info" {
                let k = v["multipv"].as_u64().unwrap() as usize;
                assert!(k == 1 || k == 2, "{v}");
                seen[k - 1] = true;
                assert!(!v["pv"].as_str().unwrap().is_empty(), "{v}");
                assert_eq!(
                    v["wdl"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|x| x.as_u64().unwrap())
                        .sum::<u64>(),
                    1000
                );
            }
        }
    }
    assert_eq!(status(addr)["searches"], 1);
    assert_eq!(status(addr)["sessions"], 1);
    drop(ws); // the tab goes, without a close frame
    let t = Instant::now();
    loop {
        let s = status(addr);
        if s["searches"] == 0 && s["sessions"] == 0 {
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(5), "still searching: {s}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn concurrent_tabs_keep_their_own_games_within_the_bounds() {
    let addr = server();
    let max = lancer::serve::MAX_SESSIONS;
    let threads: Vec<_> = (0..4)
        .map(|i| {
            std::thread::spawn(move || {
                let mut ws = connect(addr);
                let variant = ["lighthouse", "royalstandard", "fullcavalry", "chess"][i];
                let (s, _) = ask(&mut ws, json!({"op": "new", "variant": variant}));
                for k in 0..6 {
                    let m = s["legal"][k % s["legal"].as_array().unwrap().len()]["text"]
                        .as_str()
                        .unwrap()
                        .to_string();
                    let (s2, e) = ask(&mut ws, json!({"op": "move", "move": m}));
                    assert!(e.is_empty(), "{e:?}");
                    assert_eq!(s2["variant"], variant);
                    ask(&mut ws, json!({"op": "undo"}));
                }
                let (s, _) = ask(&mut ws, json!({"op": "state"}));
                assert_eq!(s["variant"], variant);
                assert_eq!(s["plies"], 0);
                ws
            })
        })
        .collect();
    let mut open: Vec<Ws> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    // Up to the bound, then refused with 503.
    while open.len() < max {
        open.push(connect(addr));
    }
    match tungstenite::connect(format!("ws://{addr}/ws")) {
        Err(tungstenite::Error::Http(r)) => assert_eq!(r.status().as_u16(), 503),
        other => panic!("tab {} was let in: {:?}", max + 1, other.map(|_| ())),
    }
    // Searches are bounded too.
    let most = lancer::serve::MAX_SEARCHES;
    for (i, ws) in open.iter_mut().enumerate().take(most + 1) {
        let (_, e) = ask(ws, json!({"op": "analyse", "on": true}));
        if i < most {
            assert!(e.is_empty(), "{e:?}");
        } else {
            assert!(e.iter().any(|m| m.contains("busy")), "{e:?}");
        }
    }
    open.clear();
    let t = Instant::now();
    while status(addr)["sessions"] != 0 || status(addr)["searches"] != 0 {
        assert!(t.elapsed() < Duration::from_secs(5), "{}", status(addr));
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut ws = connect(addr);
    let (s, _) = ask(&mut ws, json!({"op": "state"}));
    assert_eq!(s["plies"], 0);
}

#[test]
fn a_variant_of_your_own_is_served() {
    let dir = std::env::temp_dir().join(format!("lancer-serve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("mini.ini");
    std::fs::write(
        &f,
        "[minichess : chess]\nboard = 5x6\nstart = rnbqk/ppppp/5/5/PPPPP/RNBQK w - - 0 1\ncastling = none\n",
    )
    .unwrap();
    let vs = Variants::with_user_file(f.to_str().unwrap()).expect("a good file");
    let (addr, _thread) = lancer::serve::start(vs, "127.0.0.1", 0).unwrap();
    let (_, list) = get_json(addr, "/api/variants");
    assert!(
        list.as_array()
            .unwrap()
            .iter()
            .any(|v| v["name"] == "minichess"),
        "{list}"
    );
    let mut ws = connect(addr);
    let (s, e) = ask(
        &mut ws,
        json!({"op": "new", "variant": "minichess", "moves": "a2a3,e5e4"}),
    );
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(
        (s["width"].as_u64(), s["height"].as_u64()),
        (Some(5), Some(6))
    );
    assert_eq!(s["plies"], 2);
    std::fs::remove_dir_all(&dir).ok();
}
