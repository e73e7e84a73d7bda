//! UCI command lines: no line may panic or hang, and after every line the game's
//! position is consistent. The engine runs sandboxed (tiny searches, no files).
#![no_main]

use lancer::engine::{Engine, Sandbox};
use lancer::protocol::uci::handle;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut engine = Engine::sandboxed(common::variants().clone(), Sandbox::FUZZ);
    for line in text.lines().take(64) {
        if !handle(&mut engine, line) {
            break;
        }
        common::check_position(engine.position());
    }
    engine.stop();
});
