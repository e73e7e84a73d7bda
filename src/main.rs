use clap::Parser;
use lancer::cli::{self, run_uci_lines, uci_arguments, Cli};

fn main() {
    // Before anything else, so that a build for a newer processor stops with a
    // message rather than an illegal instruction (docs/download.md). Only integer
    // code runs until the check has passed.
    let missing = lancer::version::missing_instructions();
    if missing != 0 {
        cpu_mismatch_exit(missing);
    }
    run();
}

#[inline(never)]
fn run() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // Arguments that are UCI commands run as a session's input (as OpenBench runs
    // engines); everything else is clap's. clap's usage errors exit with status 2
    // (its default); `run` says which status its own errors get.
    let result = match uci_arguments(&args) {
        Some((variants, lines)) => run_uci_lines(variants.as_deref(), &lines),
        None => cli::run(Cli::parse_from(args)),
    };
    if let Err(e) = result {
        eprintln!("{}", e.text());
        std::process::exit(e.status());
    }
}

/// Says why this build cannot run here and exits: on stderr, and to a GUI on stdout
/// as XBoard's `tellusererror` (a UCI GUI ignores the line, XBoard shows it). The
/// message goes out in fixed pieces, so that little compiled code runs on a
/// processor that lacks the build's instructions.
#[cold]
#[inline(never)]
fn cpu_mismatch_exit(missing: u32) -> ! {
    use std::io::{IsTerminal, Write};
    let mut err = std::io::stderr();
    let _ = err.write_all(b"error: ");
    lancer::version::cpu_mismatch_pieces(missing, &mut |p| {
        let _ = err.write_all(p.as_bytes());
    });
    let _ = err.write_all(b"\n");
    let mut out = std::io::stdout();
    if !out.is_terminal() {
        let _ = out.write_all(b"tellusererror ");
        lancer::version::cpu_mismatch_pieces(missing, &mut |p| {
            let _ = out.write_all(p.as_bytes());
        });
        let _ = out.write_all(b"\n");
        let _ = out.flush();
    }
    std::process::exit(1);
}
