use clap::Parser;
use lancer::cli::{run, Cli};

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    // clap's usage errors exit with status 2 (its default); `run` says which
    // status its own errors get.
    let cli = Cli::parse();
    if let Err(e) = run(cli) {
        eprintln!("{}", e.text());
        std::process::exit(e.status());
    }
}
