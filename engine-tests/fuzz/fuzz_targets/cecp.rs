//! CECP (XBoard) command lines: no line may panic or hang, and after every line the
//! game's position is consistent. The engine runs sandboxed (searches on this thread,
//! no files), so a move search has reported when its line returns. A search stops
//! after `NODES` nodes: the target tests the protocol, and searches of the fuzz
//! sandbox's few hundred nodes took half its time.
#![no_main]

use lancer::engine::{Engine, Sandbox};
use lancer::protocol::xboard::{Event, Session};
use libfuzzer_sys::fuzz_target;
use std::sync::mpsc::channel;

#[path = "common.rs"]
mod common;

/// Nodes a search may visit: enough to reach a move of the root.
const NODES: u64 = 16;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let sandbox = Sandbox {
        nodes: NODES,
        ..Sandbox::FUZZ
    };
    let engine = Engine::sandboxed(common::variants().clone(), sandbox);
    let (tx, rx) = channel();
    let mut s = Session::new(engine, tx);
    for line in text.lines().take(64) {
        if !s.on_event(Event::Line(line.to_string())) {
            return;
        }
        // The engine's own move comes back as an event; play it before the next line.
        while s.awaiting_move() {
            let ev = rx
                .try_recv()
                .unwrap_or_else(|_| panic!("no move reported by '{line}'"));
            s.on_event(ev);
        }
        while let Ok(ev) = rx.try_recv() {
            s.on_event(ev);
        }
        common::check_position(s.engine().position());
    }
    s.on_event(Event::Line("quit".into()));
});
