//! Runs protocol transcripts against the built binary.
//!
//! Transcript lines: `> text` is sent to the engine; `< regex` waits (up to the
//! timeout) for an output line matching the regex, skipping others; `! regex` says no
//! output line of the whole session may match; `# ...` is a comment. In a `<` regex,
//! `$1`..`$9` stand for the text the groups of the last `<` regex that had groups
//! captured (so a line can be required to repeat an earlier one). A transcript
//! passes when every expectation is met in order and the engine exits by itself after
//! the input ends (`quit`), with no panic on stderr.
#![allow(dead_code)]

use regex::Regex;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How to start an engine: a program and the arguments before lancer's own (`wine
/// lancer.exe` for a Windows build).
#[derive(Clone, Debug)]
pub struct Engine {
    pub program: String,
    pub prefix: Vec<String>,
}

impl Engine {
    /// The `lancer` cargo built.
    pub fn built() -> Engine {
        Engine {
            program: env!("CARGO_BIN_EXE_lancer").into(),
            prefix: Vec::new(),
        }
    }

    /// A command that starts the engine, to which lancer's arguments are added.
    pub fn command(&self) -> Command {
        let mut c = Command::new(&self.program);
        c.args(&self.prefix);
        c
    }
}

/// A running engine with its output lines on a channel.
pub struct Session {
    pub child: Child,
    pub stdin: ChildStdin,
    pub rx: Receiver<String>,
    pub seen: Vec<String>,
}

impl Session {
    /// Starts `lancer` with `args`.
    pub fn start(args: &[&str]) -> Session {
        Session::start_with(&Engine::built(), args)
    }

    /// Starts `engine` with `args`.
    pub fn start_with(engine: &Engine, args: &[&str]) -> Session {
        let mut child = engine
            .command()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start lancer");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        Session {
            child,
            stdin,
            rx,
            seen: Vec::new(),
        }
    }

    /// Starts `lancer uci` and waits (up to 10 s) for `uciok`.
    pub fn uci() -> Session {
        let mut s = Session::start(&["uci"]);
        s.send("uci");
        s.expect(&Regex::new("^uciok$").unwrap(), Duration::from_secs(10))
            .unwrap();
        s
    }

    /// Sends raw bytes.
    pub fn send_bytes(&mut self, b: &[u8]) {
        let _ = self.stdin.write_all(b);
        let _ = self.stdin.flush();
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Waits for a line matching `re`; returns it, or an error with what was seen.
    pub fn expect(&mut self, re: &Regex, timeout: Duration) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(l) => {
                    self.seen.push(l.clone());
                    if re.is_match(&l) {
                        return Ok(l);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "timeout waiting for /{re}/; last lines: {:?}",
                        last(&self.seen)
                    ))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!(
                        "engine exited while waiting for /{re}/; last lines: {:?}",
                        last(&self.seen)
                    ))
                }
            }
        }
    }

    /// Closes stdin and waits for the process; returns its stderr and every line seen.
    pub fn finish(mut self) -> Result<(String, Vec<String>), String> {
        drop(self.stdin);
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20))
                }
                _ => {
                    let _ = self.child.kill();
                    return Err("engine did not exit after quit / end of input".into());
                }
            }
        }
        while let Ok(l) = self.rx.recv_timeout(Duration::from_millis(200)) {
            self.seen.push(l);
        }
        let mut err = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            use std::io::Read;
            let _ = e.read_to_string(&mut err);
        }
        if err.contains("panicked") {
            return Err(format!("panic: {err}"));
        }
        Ok((err, self.seen))
    }
}

fn last(v: &[String]) -> Vec<&String> {
    v.iter().rev().take(6).rev().collect()
}

/// Runs one transcript file; returns the failures.
pub fn run_transcript(path: &std::path::Path, args: &[&str]) -> Result<usize, String> {
    run_transcript_with(&Engine::built(), path, args)
}

/// Runs one transcript file against `engine`; returns how many expectations it met.
pub fn run_transcript_with(
    engine: &Engine,
    path: &std::path::Path,
    args: &[&str],
) -> Result<usize, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let mut s = Session::start_with(engine, args);
    let mut forbidden = Vec::new();
    let mut captured: Vec<String> = Vec::new();
    let mut checks = 0;
    for (i, line) in text.lines().enumerate() {
        let ctx = format!("{name}:{}", i + 1);
        if let Some(t) = line.strip_prefix("> ") {
            s.send(t);
        } else if line == ">" {
            s.send("");
        } else if let Some(r) = line.strip_prefix("< ") {
            let mut r = r.to_string();
            for (n, c) in captured.iter().enumerate().rev() {
                r = r.replace(&format!("${}", n + 1), &regex::escape(c));
            }
            let re = Regex::new(&r).map_err(|e| format!("{ctx}: bad regex: {e}"))?;
            let got = s
                .expect(&re, Duration::from_secs(30))
                .map_err(|e| format!("{ctx}: {e}"))?;
            if re.captures_len() > 1 {
                let caps = re.captures(&got).expect("the line matched");
                captured = (1..caps.len())
                    .map(|i| caps.get(i).map_or("", |m| m.as_str()).to_string())
                    .collect();
            }
            checks += 1;
        } else if let Some(r) = line.strip_prefix("! ") {
            forbidden.push((ctx, Regex::new(r).map_err(|e| format!("bad regex: {e}"))?));
        } else if line.trim().is_empty() || line.starts_with('#') {
        } else {
            return Err(format!("{ctx}: unknown transcript line '{line}'"));
        }
    }
    let seen_before = s.seen.clone();
    let (_, seen) = s
        .finish()
        .map_err(|e| format!("{name}: {e}; last lines: {:?}", last(&seen_before)))?;
    for l in &seen {
        for (ctx, re) in &forbidden {
            if re.is_match(l) {
                return Err(format!("{ctx}: forbidden line seen: {l}"));
            }
        }
    }
    Ok(checks)
}

/// Runs every `*.txt` transcript of `engine-tests/protocol/<dir>`; files named `*auto*`
/// start the engine without arguments (protocol auto-detection), the others with
/// `args`. Panics with every failure.
pub fn run_transcript_dir(dir: &str, args: &[&str], min_files: usize) {
    run_transcript_dir_with(&Engine::built(), dir, args, min_files);
}

/// [`run_transcript_dir`] against `engine`.
pub fn run_transcript_dir_with(engine: &Engine, dir: &str, args: &[&str], min_files: usize) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("engine-tests/protocol")
        .join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&path)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(files.len() >= min_files);
    let mut errs = Vec::new();
    let mut checks = 0;
    for f in &files {
        let a: &[&str] = if f.to_string_lossy().contains("auto") {
            &[]
        } else {
            args
        };
        match run_transcript_with(engine, f, a) {
            Ok(n) => checks += n,
            Err(e) => errs.push(e),
        }
    }
    eprintln!("{} transcripts, {checks} expectations", files.len());
    assert!(errs.is_empty(), "{}", errs.join("\n"));
}
