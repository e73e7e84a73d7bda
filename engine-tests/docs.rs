//! The documentation runs, so that it cannot go stale: every example in README.md and
//! docs/*.md is played against the binary cargo built, every start-position diagram
//! in docs/img/ is what `lancer diagram` draws now, and every link resolves. Beside
//! them stand the repository's hygiene checks: no file names a machine's path, no
//! function in `src/` outgrows [`MAX_FN_LINES`], and none in the tests outgrows
//! [`MAX_TEST_FN_LINES`].
//!
//! # How an example is written
//!
//! An example is a fenced code block whose info string is `console`:
//!
//! ````text
//! ```console
//! $ lancer perft --variant chess 3
//! Nodes searched: 8902
//! ```
//! ````
//!
//! - A line starting `$ ` is a command; it must start `$ lancer`. It is split into
//!   words as a shell would (quotes, backslashes), `lancer` is the binary cargo built,
//!   and it runs in a scratch directory of its document (files it writes, `-o x.svg`,
//!   stay there for the document's later examples).
//! - The lines after it, up to the next `$ ` line or the end of the block, are what it
//!   prints on stdout. A command ending in ` 2>&1` shows stderr too, after stdout.
//! - Lines starting `> ` are the command's input (a UCI or XBoard session). Each one
//!   is sent once the output shown above it has arrived; after the last, stdin is
//!   closed. Without `> ` lines stdin is empty.
//! - Placeholders for what changes from run to run (times, nps, node counts, the
//!   order in which threads finish): a line that is only `...` stands for any number
//!   of lines, none included; `...` within a line stands for any text
//!   (`info depth 3 ... pv b1b8e`). Trailing blanks are not compared.
//! - A command must exit with status 0, unless its output shows an `error:` line.
//! - A fenced block with a word `file=NAME` in its info string (```` ```ini file=my.ini
//!   ````) is written to NAME in the scratch directory when the document reaches it,
//!   for the examples below it.
//!
//! Other code blocks are not run, and a `$ ` line outside a `console` block is an
//! error: nothing that looks like an example escapes this test. Examples that cannot
//! run here (`lancer match`, which needs engines and minutes; XBoard itself) are
//! written without the `$ ` prompt.
//!
//! Keep examples fast (low depths, `go perft`, `d`): the whole file runs in seconds.
//! A failure shows the example's place, what it shows and what lancer printed; a
//! stale diagram names the `lancer diagram` command that redraws it.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(30);

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README.md, CONTRIBUTING.md, CHANGELOG.md and every docs/*.md, relative to the
/// repository.
fn documents() -> Vec<PathBuf> {
    let mut docs = vec![
        PathBuf::from("README.md"),
        PathBuf::from("CONTRIBUTING.md"),
        PathBuf::from("CHANGELOG.md"),
    ];
    let mut more: Vec<PathBuf> = std::fs::read_dir(repo().join("docs"))
        .expect("docs/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .map(|p| p.strip_prefix(repo()).unwrap().to_path_buf())
        .collect();
    more.sort();
    docs.extend(more);
    docs
}

fn read(rel: &Path) -> String {
    std::fs::read_to_string(repo().join(rel)).unwrap_or_else(|e| panic!("{}: {e}", rel.display()))
}

// ---------------------------------------------------------------------------------
// Reading the examples

/// One command of an example, with the lines the document shows for it.
#[derive(Debug, Default)]
struct Example {
    /// Where the `$ ` line is: `docs/x.md:12`.
    at: String,
    command: String,
    /// What is shown, in order: `Input` lines are sent, `Output` lines expected.
    lines: Vec<Shown>,
}

#[derive(Debug, Clone)]
enum Shown {
    Input(String),
    Output(String),
}

/// What a document holds, in its order: examples to run, files to write.
#[derive(Debug)]
enum Step {
    Run(Example),
    File { name: String, text: String },
}

/// Splits a document into its steps; an error names the line that breaks the convention.
fn steps(name: &str, text: &str) -> Result<Vec<Step>, String> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        let at = |i: usize| format!("{name}:{}", i + 1);
        let trimmed = line.trim_start();
        let fence = if trimmed.starts_with("```") {
            "```"
        } else if trimmed.starts_with("~~~") {
            "~~~"
        } else {
            if trimmed.starts_with("$ ") {
                return Err(format!("{}: a `$ ` line outside a console block", at(i)));
            }
            continue;
        };
        let info = trimmed.trim_start_matches(fence).trim();
        let mut body = Vec::new();
        let mut closed = false;
        for (j, l) in lines.by_ref() {
            if l.trim_start().starts_with(fence) {
                closed = true;
                break;
            }
            body.push((j, l));
        }
        if !closed {
            return Err(format!("{}: the code block is not closed", at(i)));
        }
        let words: Vec<&str> = info.split_whitespace().collect();
        if let Some(file) = words.iter().find_map(|w| w.strip_prefix("file=")) {
            let text: Vec<&str> = body.iter().map(|(_, l)| *l).collect();
            out.push(Step::File {
                name: file.to_string(),
                text: text.join("\n") + "\n",
            });
            continue;
        }
        if words.first() != Some(&"console") {
            if let Some((j, _)) = body.iter().find(|(_, l)| l.trim_start().starts_with("$ ")) {
                return Err(format!(
                    "{}: a `$ ` line in a `{info}` block (examples are `console` blocks)",
                    at(*j)
                ));
            }
            continue;
        }
        let mut current: Option<Example> = None;
        for (j, l) in body {
            if let Some(cmd) = l.strip_prefix("$ ") {
                if !cmd.starts_with("lancer") {
                    return Err(format!("{}: examples run lancer, not '{cmd}'", at(j)));
                }
                out.extend(current.take().map(Step::Run));
                current = Some(Example {
                    at: at(j),
                    command: cmd.to_string(),
                    lines: Vec::new(),
                });
                continue;
            }
            let Some(ex) = current.as_mut() else {
                return Err(format!(
                    "{}: a console block starts with a `$ lancer` line",
                    at(j)
                ));
            };
            ex.lines.push(match l.strip_prefix("> ") {
                Some(input) => Shown::Input(input.to_string()),
                None => Shown::Output(l.to_string()),
            });
        }
        match current {
            Some(ex) => out.push(Step::Run(ex)),
            None => return Err(format!("{}: an empty console block", at(i))),
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------
// Comparing

/// One line against its pattern: `...` within the pattern stands for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let (pattern, line) = (pattern.trim_end(), line.trim_end());
    let parts: Vec<&str> = pattern.split("...").collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !line.starts_with(first) || !line.ends_with(last) || line.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &line[first.len()..line.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(k) => rest = &rest[k + part.len()..],
            None => return false,
        }
    }
    true
}

/// All lines against all patterns: a pattern line `...` stands for any number of lines.
fn lines_match(patterns: &[String], lines: &[String]) -> bool {
    match patterns.split_first() {
        None => lines.is_empty(),
        Some((p, rest)) if p.trim() == "..." => {
            (0..=lines.len()).any(|k| lines_match(rest, &lines[k..]))
        }
        Some((p, rest)) => {
            !lines.is_empty() && line_matches(p, &lines[0]) && lines_match(rest, &lines[1..])
        }
    }
}

// ---------------------------------------------------------------------------------
// Running

/// Runs one example in `dir`; the error shows what was expected and what came.
fn run(ex: &Example, dir: &Path, timeout: Duration) -> Result<(), String> {
    let (cmd, with_stderr) = match ex.command.trim_end().strip_suffix(" 2>&1") {
        Some(c) => (c, true),
        None => (ex.command.trim_end(), false),
    };
    let words = shlex::split(cmd).ok_or_else(|| format!("{}: cannot split '{cmd}'", ex.at))?;
    if words.first().map(String::as_str) != Some("lancer") {
        return Err(format!("{}: examples run lancer, not '{cmd}'", ex.at));
    }
    let expected: Vec<String> = ex
        .lines
        .iter()
        .filter_map(|s| match s {
            Shown::Output(l) => Some(l.clone()),
            Shown::Input(_) => None,
        })
        .collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_lancer"))
        .args(&words[1..])
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: cannot start lancer: {e}", ex.at))?;
    let seen = Arc::new(Mutex::new(Vec::<String>::new()));
    let stdout = child.stdout.take().unwrap();
    let reader = {
        let seen = Arc::clone(&seen);
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => seen.lock().unwrap().push(l),
                    Err(_) => break,
                }
            }
        })
    };
    let mut stderr = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let report = |why: &str, got: &[String], err: &str| {
        format!(
            "{}: {why}\n$ {}\n--- expected:\n{}\n--- got:\n{}\n--- stderr:\n{err}",
            ex.at,
            ex.command,
            expected.join("\n"),
            got.join("\n")
        )
    };
    let mut stdin = child.stdin.take();
    let mut shown_before = Vec::new();
    let mut failure = None;
    for s in &ex.lines {
        match s {
            Shown::Output(l) => shown_before.push(l.clone()),
            Shown::Input(input) => {
                // Wait for the output shown above this input.
                let t0 = Instant::now();
                while !lines_match(&shown_before, &seen.lock().unwrap()) {
                    if t0.elapsed() > timeout {
                        failure = Some(format!("no such output before '> {input}'"));
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(2));
                }
                if failure.is_some() {
                    break;
                }
                if let Some(w) = stdin.as_mut() {
                    let _ = writeln!(w, "{input}");
                    let _ = w.flush();
                }
            }
        }
    }
    drop(stdin);
    let t0 = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().map_err(|e| e.to_string())? {
            break Some(st);
        }
        if failure.is_some() || t0.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    reader.join().unwrap();
    let err = err_reader.join().unwrap();
    let mut got = seen.lock().unwrap().clone();
    if with_stderr {
        got.extend(err.lines().map(String::from));
    }
    if let Some(why) = failure {
        return Err(report(&why, &got, &err));
    }
    let Some(status) = status else {
        return Err(report(
            &format!("still running after {timeout:?}"),
            &got,
            &err,
        ));
    };
    if !lines_match(&expected, &got) {
        return Err(report("the output differs", &got, &err));
    }
    let shows_error = expected.iter().any(|l| l.starts_with("error:"));
    if !status.success() && !shows_error {
        return Err(report(&format!("exit status {status}"), &got, &err));
    }
    Ok(())
}

/// Runs every example of one document; returns how many ran, or every failure.
fn run_document(rel: &Path) -> Result<usize, String> {
    let name = rel.display().to_string();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("docs")
        .join(name.replace('/', "_"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Vec::new();
    let mut ran = 0;
    for step in steps(&name, &read(rel))? {
        match step {
            Step::File { name, text } => std::fs::write(dir.join(name), text).unwrap(),
            Step::Run(ex) => {
                ran += 1;
                if let Err(e) = run(&ex, &dir, TIMEOUT) {
                    failures.push(e);
                }
            }
        }
    }
    if failures.is_empty() {
        Ok(ran)
    } else {
        Err(failures.join("\n\n"))
    }
}

#[test]
fn readme_examples_run_as_shown() {
    let n = run_document(Path::new("README.md")).unwrap_or_else(|e| panic!("{e}"));
    assert!(n >= 3, "only {n} examples in README.md");
}

#[test]
fn docs_examples_run_as_shown() {
    let mut failures = Vec::new();
    let mut total = 0;
    for doc in documents().into_iter().skip(1) {
        match run_document(&doc) {
            Ok(n) => {
                eprintln!("{}: {n} examples", doc.display());
                total += n;
            }
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(total >= 20, "only {total} examples in docs/");
}

/// The checker itself: a wrong line, a missing line, an extra line and a broken
/// convention are all caught; placeholders match what they stand for.
#[test]
fn the_checker_catches_wrong_examples() {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert!(line_matches(
        "info depth 3 ... pv b1b8e",
        "info depth 3 nodes 9 pv b1b8e"
    ));
    assert!(line_matches("... nodes", "2766 nodes"));
    assert!(line_matches("1... e5", "1... e5"));
    assert!(!line_matches(
        "info depth 3 ... pv b1b8e",
        "info depth 3 nodes 9 pv b1b8"
    ));
    assert!(!line_matches("a...a", "a"));
    assert!(lines_match(&s(&["a", "...", "z"]), &s(&["a", "z"])));
    assert!(lines_match(
        &s(&["a", "...", "z"]),
        &s(&["a", "b", "c", "z"])
    ));
    assert!(!lines_match(&s(&["a", "z"]), &s(&["a", "b", "z"])));
    assert!(!lines_match(&s(&["a", "b"]), &s(&["a"])));

    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("docs-selftest");
    std::fs::create_dir_all(&dir).unwrap();
    let doc = "```console\n$ lancer perft --variant chess 2\nNodes searched: 401\n```\n";
    let [Step::Run(ex)] = &steps("t.md", doc).unwrap()[..] else {
        panic!("one example")
    };
    let e = run(ex, &dir, Duration::from_secs(2)).unwrap_err();
    assert!(
        e.contains("the output differs") && e.contains("Nodes searched: 400"),
        "{e}"
    );
    let doc = "```console\n$ lancer uci\n> isready\nreadyok\nreadyok\n> quit\n```\n";
    let [Step::Run(ex)] = &steps("t.md", doc).unwrap()[..] else {
        panic!("one example")
    };
    assert!(run(ex, &dir, Duration::from_secs(2))
        .unwrap_err()
        .contains("no such output before '> quit'"));
    let doc = "```console\n$ lancer perft --fen x 1\n```\n";
    let [Step::Run(ex)] = &steps("t.md", doc).unwrap()[..] else {
        panic!("one example")
    };
    assert!(run(ex, &dir, Duration::from_secs(2))
        .unwrap_err()
        .contains("exit status"));
    assert!(steps("t.md", "$ lancer perft 1\n").is_err());
    assert!(steps("t.md", "```sh\n$ lancer perft 1\n```\n").is_err());
    assert!(steps("t.md", "```console\n$ ls\n```\n").is_err());
    assert!(steps("t.md", "```console\nhello\n```\n").is_err());
}

// ---------------------------------------------------------------------------------
// Diagrams

/// What `lancer diagram --variant V` draws now.
fn diagram(variant: &str) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_lancer"))
        .args(["diagram", "--variant", variant])
        .output()
        .expect("lancer runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// Every docs/img/V.svg is the start position of variant V as `lancer diagram` draws
/// it now (regenerate with `lancer diagram --variant V -o docs/img/V.svg`).
#[test]
fn diagrams_are_what_lancer_draws_now() {
    let vs = lancer::rules::Variants::builtin();
    let mut n = 0;
    for e in std::fs::read_dir(repo().join("docs/img")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "svg") {
            continue;
        }
        let v = p.file_stem().unwrap().to_str().unwrap();
        assert!(
            vs.get(v).is_some_and(|x| x.name == v),
            "{}: not a variant",
            p.display()
        );
        let have = std::fs::read_to_string(&p).unwrap();
        assert!(
            have == diagram(v),
            "{} is stale: lancer diagram --variant {v} -o docs/img/{v}.svg",
            p.display()
        );
        n += 1;
    }
    assert_eq!(n, vs.all().len(), "one diagram per built-in variant");
}

/// The pages for people who download lancer name this version's files and bench
/// signature, and the changelog has this version's section: a new version or a
/// change of the search shows here until they are brought up to date.
#[test]
fn download_pages_name_this_version_and_its_bench_signature() {
    let o = Command::new(env!("CARGO_BIN_EXE_lancer"))
        .arg("bench")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let nodes = out
        .lines()
        .find_map(|l| {
            l.strip_suffix(" nodes")
                .filter(|n| n.parse::<u64>().is_ok())
        })
        .expect("bench prints its nodes");
    let download = read(Path::new("docs/download.md"));
    assert!(
        download.contains(&format!("describe is **{nodes}**")),
        "docs/download.md: the bench signature is {nodes} now"
    );
    assert!(
        read(Path::new("README.md")).contains(&format!("signature, {nodes} nodes")),
        "README.md, Download: the bench signature is {nodes} now"
    );
    let version = env!("CARGO_PKG_VERSION");
    let file = regex::Regex::new(r"lancer-(\d+\.\d+\.\d+)[-/]").unwrap();
    let mut seen = 0;
    for doc in [
        "README.md",
        "docs/download.md",
        "docs/winboard.md",
        "docs/install-windows.txt",
    ] {
        let text = read(Path::new(doc));
        for c in file.captures_iter(&text) {
            assert_eq!(&c[1], version, "{doc}: {}", &c[0]);
            seen += 1;
        }
    }
    assert!(seen >= 10, "only {seen} file names");
    let changelog = read(Path::new("CHANGELOG.md"));
    assert!(
        changelog.contains(&format!("\n## {version} - ")),
        "CHANGELOG.md has no section for {version}"
    );
}

/// docs/rules.md shows every built-in variant's start position.
#[test]
fn rules_show_every_variant() {
    let rules = read(Path::new("docs/rules.md"));
    for v in lancer::rules::Variants::builtin().all() {
        let link = format!("](img/{}.svg)", v.name);
        assert!(rules.contains(&link), "docs/rules.md lacks ![...]{link}");
        assert!(repo()
            .join("docs/img")
            .join(format!("{}.svg", v.name))
            .exists());
    }
}

// ---------------------------------------------------------------------------------
// Links

/// GitHub's anchor of a heading: lower case, punctuation dropped, blanks to `-`.
fn slug(heading: &str) -> String {
    let link = regex::Regex::new(r"\[([^\]]*)\]\([^)]*\)").unwrap();
    let text = link.replace_all(heading, "$1");
    text.trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown text (a repeated heading gets `-1`, `-2`, ... as on GitHub).
fn anchors(text: &str) -> Vec<String> {
    let mut seen = std::collections::HashMap::<String, usize>::new();
    let mut out = Vec::new();
    for line in without_fences(text).lines() {
        let Some(h) = line.strip_prefix('#') else {
            continue;
        };
        let s = slug(h.trim_start_matches('#'));
        let n = seen.entry(s.clone()).or_insert(0);
        out.push(if *n == 0 { s } else { format!("{s}-{n}") });
        *n += 1;
    }
    out
}

/// The text without its fenced code blocks.
fn without_fences(text: &str) -> String {
    let mut out = String::new();
    let mut fence: Option<&str> = None;
    for line in text.lines() {
        let t = line.trim_start();
        match fence {
            Some(f) if t.starts_with(f) => fence = None,
            Some(_) => {}
            None if t.starts_with("```") => fence = Some("```"),
            None if t.starts_with("~~~") => fence = Some("~~~"),
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// The prose of a Markdown text: no code blocks, no code spans (links there are not links).
fn without_code(text: &str) -> String {
    let code = regex::Regex::new("`[^`]*`").unwrap();
    code.replace_all(&without_fences(text), "").into_owned()
}

/// The files the repository tracks (`git ls-files`; without git, every file outside
/// `target/` and `.git/`).
fn tracked_files() -> Vec<PathBuf> {
    if let Ok(o) = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(repo())
        .output()
    {
        if o.status.success() {
            return o
                .stdout
                .split(|&b| b == 0)
                .filter(|f| !f.is_empty())
                .map(|f| PathBuf::from(String::from_utf8_lossy(f).into_owned()))
                .collect();
        }
    }
    let mut out = Vec::new();
    let mut dirs = vec![PathBuf::new()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(repo().join(&d))
            .into_iter()
            .flatten()
            .flatten()
        {
            let rel = d.join(e.file_name());
            if e.path().is_dir() {
                if !matches!(e.file_name().to_str(), Some("target" | ".git")) {
                    dirs.push(rel);
                }
            } else {
                out.push(rel);
            }
        }
    }
    out
}

/// No tracked text file names a path of one machine: an absolute path must start in
/// a directory every Unix system has (`/usr/games/fairy-stockfish`, `/tmp/...`,
/// `/dev/null`, `/opt/...`), be a placeholder (`/path/to/...`, `/nonexistent/...`,
/// `/no/such/...`), continue the repository's own path (`concat!(env!(..),
/// "/engine-tests/...")`) or be an HTTP path (`/api/...`, `/js/...`). Home directories (home, root, Users), mounts and work
/// trees are refused.
#[test]
fn no_file_names_a_machine_path() {
    const ALLOWED: &[&str] = &[
        "usr",
        "bin",
        "sbin",
        "lib",
        "etc",
        "tmp",
        "dev",
        "proc",
        "sys",
        "opt",
        "var",
        "path",
        "nonexistent",
        "no",
        // HTTP paths, not files: the web board's API and script modules (and a
        // traversal its tests try) and chromedriver's WebDriver commands.
        "api",
        "js",
        "..",
        "session",
        "element",
        "execute",
    ];
    let own: Vec<String> = std::fs::read_dir(repo())
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    // A path starts a word, an assignment or a list, perhaps in quotes; a slash
    // after a closing quote (`"$dir"/obj`) continues a variable.
    let path = regex::Regex::new(r#"(?m)(?:^|[\s(=\[:,])["'`]?/([A-Za-z0-9_.-]+)/"#).unwrap();
    let mut problems = Vec::new();
    let files = tracked_files();
    assert!(files.len() > 50, "only {} files found", files.len());
    for f in files {
        let Ok(text) = std::fs::read_to_string(repo().join(&f)) else {
            continue; // binary, or gone from the work tree
        };
        for c in path.captures_iter(&text) {
            if !ALLOWED.contains(&&c[1]) && !own.iter().any(|d| *d == c[1]) {
                let line = text[..c.get(0).unwrap().start()].lines().count().max(1);
                problems.push(format!("{}:{line}: /{}/...", f.display(), &c[1]));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// README.md, CONTRIBUTING.md and docs/*.md stand alone: no `../shared` references,
/// every relative link (and `#anchor`) leads somewhere.
#[test]
fn links_resolve_and_nothing_points_outside() {
    let inline = regex::Regex::new(r#"\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)"#).unwrap();
    let reference = regex::Regex::new(r"(?m)^\s*\[[^\]]+\]:\s*(\S+)").unwrap();
    let mut problems = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let text = read(&doc);
        for bad in ["../shared", "shared reference"] {
            if text.contains(bad) {
                problems.push(format!("{}: mentions '{bad}'", doc.display()));
            }
        }
        let prose = without_code(&text);
        let targets = inline
            .captures_iter(&prose)
            .chain(reference.captures_iter(&prose))
            .map(|c| c[1].to_string());
        for t in targets {
            if t.contains("://") || t.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, anchor) = match t.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (t.as_str(), None),
            };
            let file = if path.is_empty() {
                doc.clone()
            } else {
                doc.parent().unwrap().join(path)
            };
            if !repo().join(&file).exists() {
                problems.push(format!("{}: link to missing {t}", doc.display()));
                continue;
            }
            if let Some(a) = anchor {
                let in_md = file.extension().is_some_and(|x| x == "md");
                if !in_md || !anchors(&read(&file)).iter().any(|x| x == a) {
                    problems.push(format!(
                        "{}: no anchor #{a} in {}",
                        doc.display(),
                        file.display()
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(checked >= 10, "only {checked} links checked");
}

// ---------------------------------------------------------------------------------
// The code's shape

/// Most lines a function in `src/` may have, from `fn` to its closing brace.
const MAX_FN_LINES: usize = 120;
/// The functions allowed more (none now; a name and its own limit).
const LONGER_FNS: &[(&str, usize)] = &[];

/// Rust source with its comments, strings and character literals blanked (newlines
/// kept), so that the braces left are the code's.
fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out: Vec<char> = Vec::with_capacity(c.len());
    let blank = |out: &mut Vec<char>, s: &[char]| {
        out.extend(s.iter().map(|&x| if x == '\n' { '\n' } else { ' ' }))
    };
    let ident = |x: char| x.is_alphanumeric() || x == '_';
    let mut i = 0;
    while i < c.len() {
        let at = |k: usize| c.get(i + k).copied().unwrap_or('\0');
        let end = if at(0) == '/' && at(1) == '/' {
            (i..c.len()).find(|&j| c[j] == '\n').unwrap_or(c.len())
        } else if at(0) == '/' && at(1) == '*' {
            let (mut j, mut depth) = (i, 0);
            while j < c.len() {
                if c[j] == '/' && c.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if c[j] == '*' && c.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            j
        } else if at(0) == 'r'
            && (at(1) == '"' || at(1) == '#')
            && (i == 0 || !ident(c[i - 1]) || (c[i - 1] == 'b' && (i < 2 || !ident(c[i - 2]))))
        {
            // A raw string: r"...", r#"..."#.
            let hashes = (i + 1..c.len()).take_while(|&j| c[j] == '#').count();
            if c.get(i + 1 + hashes) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            let mut j = i + 2 + hashes;
            while j < c.len() && !(c[j] == '"' && (1..=hashes).all(|h| c.get(j + h) == Some(&'#')))
            {
                j += 1;
            }
            (j + 1 + hashes).min(c.len())
        } else if at(0) == '"' {
            let mut j = i + 1;
            while j < c.len() && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            (j + 1).min(c.len())
        } else if at(0) == '\'' && at(1) == '\\' {
            (i + 2..c.len())
                .find(|&j| c[j] == '\'')
                .map_or(c.len(), |j| j + 1)
        } else if at(0) == '\'' && at(2) == '\'' {
            i + 3
        } else {
            // Code, or a lifetime's quote.
            out.push(c[i]);
            i += 1;
            continue;
        };
        blank(&mut out, &c[i..end]);
        i = end;
    }
    out.into_iter().collect()
}

/// The functions of a Rust file outside its tests (`#[cfg(test)]` items, `#[test]`
/// functions), with bodies: (name, line of `fn`, lines up to the closing brace).
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    measure(text, false)
}

/// The functions of a Rust file with bodies, those of its tests too if `tests`:
/// (name, line of `fn`, lines up to the closing brace).
fn measure(text: &str, tests: bool) -> Vec<(String, usize, usize)> {
    let code = code_only(text);
    let b = code.as_bytes();
    let line = |pos: usize| code[..pos].matches('\n').count() + 1;
    // The end of the block whose `{` is at `open`.
    let close = |open: usize| {
        let mut depth = 0;
        for (j, &x) in b.iter().enumerate().skip(open) {
            match x {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        return j;
                    }
                }
                _ => {}
            }
        }
        b.len() - 1
    };
    // Whether the item starting at `pos` (its `fn` or `mod`) is only for tests.
    let test_only = |pos: usize| {
        let mut before = code[..pos].trim_end();
        loop {
            let word = before
                .rsplit(|x: char| x.is_whitespace())
                .next()
                .unwrap_or("");
            if ["pub", "const", "unsafe", "async"].contains(&word) || word.starts_with("pub(") {
                before = before[..before.len() - word.len()].trim_end();
                continue;
            }
            let Some(start) = before.ends_with(']').then(|| before.rfind("#[")).flatten() else {
                return false;
            };
            let attr: String = before[start..]
                .chars()
                .filter(|x| !x.is_whitespace())
                .collect();
            if attr == "#[test]" || attr == "#[cfg(test)]" {
                return true;
            }
            before = before[..start].trim_end();
        }
    };
    let is_ident = |x: u8| x.is_ascii_alphanumeric() || x == b'_';
    let mut skip_to = 0;
    let mut out = Vec::new();
    let mut i = 0;
    while i + 3 < b.len() {
        let word_start = i == 0 || !is_ident(b[i - 1]);
        if i < skip_to || !word_start {
            i += 1;
            continue;
        }
        if code[i..].starts_with("mod ") && !tests && test_only(i) {
            if let Some(open) = code[i..].find(['{', ';']).map(|k| i + k) {
                if b[open] == b'{' {
                    skip_to = close(open);
                }
            }
        } else if code[i..].starts_with("fn ") {
            let name: String = code[i + 3..]
                .trim_start()
                .chars()
                .take_while(|&x| x.is_alphanumeric() || x == '_')
                .collect();
            // The body's `{`, or the `;` of a declaration, outside parentheses and
            // brackets (`-> [u8; 4]`).
            let mut depth = 0i32;
            let mut body = None;
            for (j, &x) in b.iter().enumerate().skip(i) {
                match x {
                    b'(' | b'[' => depth += 1,
                    b')' | b']' => depth -= 1,
                    b';' if depth == 0 => break,
                    b'{' if depth == 0 => {
                        body = Some(j);
                        break;
                    }
                    _ => {}
                }
            }
            if let Some(open) = body {
                if !tests && test_only(i) {
                    skip_to = close(open);
                } else {
                    out.push((name, line(i), line(close(open)) - line(i) + 1));
                }
            }
        }
        i += 1;
    }
    out
}

/// The measure reads Rust as the compiler does: braces in strings, characters and
/// comments do not count, declarations have no body, tests are left out.
#[test]
fn the_function_measure_reads_rust() {
    let text = r####"
/// A doc { comment.
pub(crate) fn a(x: [u8; 2]) -> [u8; 2] {
    let s = "}}}";
    let r = r#"{ "# ;
    let c = '{';
    let e = '\'';
    /* { /* nested } */ { */
    fn inner<'a>(y: &'a str) -> &'a str { y }
    x
}
trait T {
    fn declared(&self) -> u8;
}
#[test]
fn a_test() {
}
#[cfg(test)]
mod tests {
    fn helper() {}
}
fn b() {}
"####;
    let got = functions(text);
    let want: Vec<(String, usize, usize)> = vec![
        ("a".into(), 3, 9),
        ("inner".into(), 9, 1),
        ("b".into(), 22, 1),
    ];
    assert_eq!(got, want);
    // The tests' own measure counts them too.
    let want: Vec<(String, usize, usize)> = vec![
        ("a".into(), 3, 9),
        ("inner".into(), 9, 1),
        ("a_test".into(), 16, 2),
        ("helper".into(), 20, 1),
        ("b".into(), 22, 1),
    ];
    assert_eq!(measure(text, true), want);
}

/// No function in `src/` is longer than [`MAX_FN_LINES`] (those of [`LONGER_FNS`] than
/// their own limit): a long function is split where its concept splits.
#[test]
fn no_function_in_src_is_too_long() {
    let mut problems = Vec::new();
    let mut seen = 0;
    let mut dirs = vec![repo().join("src")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                for (name, line, n) in functions(&text) {
                    seen += 1;
                    let limit = LONGER_FNS
                        .iter()
                        .find(|(f, _)| *f == name)
                        .map_or(MAX_FN_LINES, |&(_, l)| l);
                    if n > limit {
                        let rel = p.strip_prefix(repo()).unwrap();
                        problems.push(format!(
                            "{}:{line}: fn {name} has {n} lines (at most {limit})",
                            rel.display()
                        ));
                    }
                }
            }
        }
    }
    assert!(seen > 500, "only {seen} functions found");
    problems.sort();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Most lines a function of the tests (`engine-tests/`) may have, `#[test]` functions
/// among them: a long test is split into the steps it checks.
const MAX_TEST_FN_LINES: usize = 120;

/// No function in `engine-tests/` (the test files, `common/`, `protocol/`, the fuzz
/// targets) is longer than [`MAX_TEST_FN_LINES`].
#[test]
fn no_function_in_the_tests_is_too_long() {
    let mut problems = Vec::new();
    let mut seen = 0;
    let mut dirs = vec![repo().join("engine-tests")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                if e.file_name() != "target" {
                    dirs.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                for (name, line, n) in measure(&text, true) {
                    seen += 1;
                    if n > MAX_TEST_FN_LINES {
                        let rel = p.strip_prefix(repo()).unwrap();
                        problems.push(format!(
                            "{}:{line}: fn {name} has {n} lines (at most {MAX_TEST_FN_LINES})",
                            rel.display()
                        ));
                    }
                }
            }
        }
    }
    assert!(seen > 200, "only {seen} functions found");
    problems.sort();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
