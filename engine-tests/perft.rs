//! Perft suites: `engine-tests/perft/<variant>.perft`, one position per line:
//! `EFEN ;D1 n ;D2 n ...`. The default run checks every depth whose count is at most
//! `FAST_LIMIT` nodes; `cargo test --release -- --ignored` checks them all.

mod common;
use common::*;
use lancer::rules::perft::perft;

const FAST_LIMIT: u64 = 3_000_000;

struct Case {
    file: String,
    line: usize,
    variant: String,
    efen: String,
    depths: Vec<(u32, u64)>,
}

fn load_suites() -> Vec<Case> {
    let dir = data_path("perft");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("engine-tests/perft exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "perft"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let variant = f.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut parts = line.split(';');
            let efen = parts.next().unwrap().trim().to_string();
            let depths = parts
                .map(|p| {
                    let p = p.trim();
                    let (d, n) = p
                        .strip_prefix('D')
                        .and_then(|r| r.split_once(' '))
                        .unwrap_or_else(|| {
                            panic!("{}:{}: bad depth field '{p}'", f.display(), i + 1)
                        });
                    (d.trim().parse().unwrap(), n.trim().parse().unwrap())
                })
                .collect();
            out.push(Case {
                file: f.file_name().unwrap().to_string_lossy().to_string(),
                line: i + 1,
                variant: variant.clone(),
                efen,
                depths,
            });
        }
    }
    out
}

fn run(limit: u64) {
    let cases = load_suites();
    assert!(cases.len() > 20, "suites are loaded");
    let mut failures = Vec::new();
    let mut checked = 0;
    for c in &cases {
        let p = pos(&c.variant, &c.efen);
        for &(d, want) in &c.depths {
            if want > limit {
                continue;
            }
            let got = perft(&p, d);
            checked += 1;
            if got != want {
                failures.push(format!(
                    "{}:{} {} depth {d}: expected {want}, got {got}",
                    c.file, c.line, c.efen
                ));
            }
        }
    }
    eprintln!("{checked} perft counts checked");
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
}

#[test]
fn perft_suites_fast() {
    run(FAST_LIMIT);
}

#[test]
#[ignore = "deep perft: run with --release -- --ignored"]
fn perft_suites_deep() {
    run(u64::MAX);
}

/// Every line of the project's public vectors must be in the suites.
#[test]
fn public_vectors_are_in_the_suites() {
    let text = include_str!("perft/public-vectors.tsv");
    let cases = load_suites();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let (variant, efen, d, n) = (
            f[0],
            f[1],
            f[2].parse::<u32>().unwrap(),
            f[3].trim().parse::<u64>().unwrap(),
        );
        let found = cases
            .iter()
            .any(|c| c.variant == variant && c.efen == efen && c.depths.contains(&(d, n)));
        assert!(found, "public vector missing from the suites: {line}");
    }
}

/// `divide` (UCI `go perft`, `lancer perft --divide`) reports the root moves in the
/// order of the legal moves however many threads count them, as Stockfish does: a
/// transcript or a script can rely on the order.
#[test]
fn divide_reports_in_move_order_on_several_threads() {
    use lancer::rules::moves::MoveList;
    use lancer::rules::notation::move_text;
    use lancer::rules::perft::divide;
    let v = variants().get("eightpiece").unwrap();
    let p = lancer::rules::position::Position::from_efen(v, &v.default_start_fen()).unwrap();
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let want: Vec<String> = list.iter().map(|&m| move_text(&p, m)).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    for _ in 0..20 {
        let got = std::sync::Mutex::new(Vec::new());
        let total =
            pool.install(|| divide(&p, 2, &|m, n| got.lock().unwrap().push((m.to_string(), n))));
        let got = got.into_inner().unwrap();
        let names: Vec<&String> = got.iter().map(|(m, _)| m).collect();
        assert_eq!(names, want.iter().collect::<Vec<_>>());
        assert_eq!(got.iter().map(|(_, n)| n).sum::<u64>(), total);
    }
}
