use clap::Parser;
use lancer::cli::{run, run_uci_lines, uci_arguments, Cli};

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // Arguments that are UCI commands run as a session's input (as OpenBench runs
    // engines); everything else is clap's. clap's usage errors exit with status 2
    // (its default); `run` says which status its own errors get.
    let result = match uci_arguments(&args) {
        Some((variants, lines)) => run_uci_lines(variants.as_deref(), &lines),
        None => run(Cli::parse_from(args)),
    };
    if let Err(e) = result {
        eprintln!("{}", e.text());
        std::process::exit(e.status());
    }
}
