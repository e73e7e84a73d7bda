//! Which build this is (docs/download.md): the version and commit that UCI's
//! `id name`, XBoard's `myname` and `lancer --version` give, and the processor check
//! that runs before anything else.

/// The version and commit: `0.2.0 (cc96aaa)`, `0.2.0 (cc96aaa, modified)` when
/// tracked files differed from the commit, `0.2.0 (commit unknown)` without git.
pub const VERSION: &str = env!("LANCER_VERSION");

/// The engine's name as the protocols announce it: `lancer 0.2.0 (cc96aaa)`.
pub fn engine_name() -> String {
    format!("lancer {VERSION}")
}

/// The x86-64 level this code was compiled for: the highest whose instructions
/// are all enabled.
pub const CPU_LEVEL: &str = if cfg!(all(
    target_feature = "avx512f",
    target_feature = "avx512bw",
    target_feature = "avx512cd",
    target_feature = "avx512dq",
    target_feature = "avx512vl",
    target_feature = "avx2",
    target_feature = "bmi2",
    target_feature = "fma",
    target_feature = "popcnt",
    target_feature = "sse4.2"
)) {
    "x86-64-v4"
} else if cfg!(all(
    target_feature = "avx2",
    target_feature = "bmi1",
    target_feature = "bmi2",
    target_feature = "fma",
    target_feature = "lzcnt",
    target_feature = "movbe",
    target_feature = "popcnt",
    target_feature = "sse4.2"
)) {
    "x86-64-v3"
} else if cfg!(all(
    target_feature = "popcnt",
    target_feature = "sse4.2",
    target_feature = "ssse3"
)) {
    "x86-64-v2"
} else if cfg!(target_arch = "x86_64") {
    "x86-64"
} else {
    "generic"
};

/// `lancer --version`: the version, then how it was built.
pub fn long_version() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        format!(
            "{VERSION}\n{} for {CPU_LEVEL} ({}) by {}",
            env!("LANCER_BUILT_FROM"),
            env!("LANCER_TARGET"),
            env!("LANCER_RUSTC")
        )
    })
}

/// An instruction set a build may be compiled to use, and whether this build uses
/// it.
struct Isa {
    name: &'static str,
    used: bool,
}

macro_rules! isa {
    ($name:literal) => {
        Isa {
            name: $name,
            used: cfg!(target_feature = $name),
        }
    };
}

/// The instruction sets of the levels x86-64-v2 to v4, in the order of the bits
/// [`cpu`] reports them in.
const ISAS: [Isa; 17] = [
    isa!("sse3"),
    isa!("ssse3"),
    isa!("fma"),
    isa!("sse4.1"),
    isa!("sse4.2"),
    isa!("movbe"),
    isa!("popcnt"),
    isa!("avx"),
    isa!("bmi1"),
    isa!("avx2"),
    isa!("bmi2"),
    isa!("avx512f"),
    isa!("avx512dq"),
    isa!("avx512cd"),
    isa!("avx512bw"),
    isa!("avx512vl"),
    isa!("lzcnt"),
];

/// A bit (by `ISAS`' order) for each instruction set this build uses that the
/// processor lacks; 0 when it can run. std's `is_x86_feature_detected!` answers
/// "yes" for whatever the build was compiled with, and Rust code compiled for a
/// newer processor may itself use the instructions in question (BMI2's `shlx` for a
/// shift), so the question goes to `cpuid` in assembly ([`cpu`]).
pub fn missing_instructions() -> u32 {
    cpu::missing(REQUIRED)
}

/// The instruction sets this build uses, by `ISAS`' order.
const REQUIRED: u64 = {
    let mut mask = 0;
    let mut i = 0;
    while i < ISAS.len() {
        if ISAS[i].used {
            mask |= 1 << i;
        }
        i += 1;
    }
    mask
};

/// The processor check in assembly: nothing a compiler chooses runs before it.
#[allow(unsafe_code)]
mod cpu {
    #[cfg(target_arch = "x86_64")]
    std::arch::global_asm!(
        // lancer_missing_isa(required: u64) -> u64, System V convention (rdi in,
        // rax out) on every system; `cpuid` overwrites rbx, which is kept.
        ".text",
        ".globl lancer_missing_isa",
        ".p2align 4",
        "lancer_missing_isa:",
        "push rbx",
        "mov r8, rdi",
        "xor r9d, r9d",
        // Leaf 0: the highest basic leaf; leaf 1: ECX.
        "xor eax, eax",
        "xor ecx, ecx",
        "cpuid",
        "mov r10d, eax",
        "mov eax, 1",
        "xor ecx, ecx",
        "cpuid",
        "mov r11d, ecx",
        // Leaf 7 EBX, when the processor has leaf 7.
        "xor esi, esi",
        "cmp r10d, 7",
        "jb 3f",
        "mov eax, 7",
        "xor ecx, ecx",
        "cpuid",
        "mov esi, ebx",
        "3:",
        // Leaf 0x80000001 ECX, when the processor has it.
        "mov eax, 0x80000000",
        "xor ecx, ecx",
        "cpuid",
        "xor edi, edi",
        "cmp eax, 0x80000001",
        "jb 4f",
        "mov eax, 0x80000001",
        "xor ecx, ecx",
        "cpuid",
        "mov edi, ecx",
        "4:",
        // The registers the system saves (XCR0), when it says (OSXSAVE).
        "xor r10d, r10d",
        "bt r11d, 27",
        "jnc 5f",
        "xor ecx, ecx",
        "xgetbv",
        "mov r10d, eax",
        "5:",
        // Each instruction set's cpuid bit to its bit in ISAS' order.
        // sse3
        "mov eax, r11d",
        "shr eax, 0",
        "and eax, 1",
        "shl eax, 0",
        "or r9d, eax",
        // ssse3
        "mov eax, r11d",
        "shr eax, 9",
        "and eax, 1",
        "shl eax, 1",
        "or r9d, eax",
        // fma
        "mov eax, r11d",
        "shr eax, 12",
        "and eax, 1",
        "shl eax, 2",
        "or r9d, eax",
        // sse4.1
        "mov eax, r11d",
        "shr eax, 19",
        "and eax, 1",
        "shl eax, 3",
        "or r9d, eax",
        // sse4.2
        "mov eax, r11d",
        "shr eax, 20",
        "and eax, 1",
        "shl eax, 4",
        "or r9d, eax",
        // movbe
        "mov eax, r11d",
        "shr eax, 22",
        "and eax, 1",
        "shl eax, 5",
        "or r9d, eax",
        // popcnt
        "mov eax, r11d",
        "shr eax, 23",
        "and eax, 1",
        "shl eax, 6",
        "or r9d, eax",
        // avx
        "mov eax, r11d",
        "shr eax, 28",
        "and eax, 1",
        "shl eax, 7",
        "or r9d, eax",
        // bmi1
        "mov eax, esi",
        "shr eax, 3",
        "and eax, 1",
        "shl eax, 8",
        "or r9d, eax",
        // avx2
        "mov eax, esi",
        "shr eax, 5",
        "and eax, 1",
        "shl eax, 9",
        "or r9d, eax",
        // bmi2
        "mov eax, esi",
        "shr eax, 8",
        "and eax, 1",
        "shl eax, 10",
        "or r9d, eax",
        // avx512f
        "mov eax, esi",
        "shr eax, 16",
        "and eax, 1",
        "shl eax, 11",
        "or r9d, eax",
        // avx512dq
        "mov eax, esi",
        "shr eax, 17",
        "and eax, 1",
        "shl eax, 12",
        "or r9d, eax",
        // avx512cd
        "mov eax, esi",
        "shr eax, 28",
        "and eax, 1",
        "shl eax, 13",
        "or r9d, eax",
        // avx512bw
        "mov eax, esi",
        "shr eax, 30",
        "and eax, 1",
        "shl eax, 14",
        "or r9d, eax",
        // avx512vl
        "mov eax, esi",
        "shr eax, 31",
        "and eax, 1",
        "shl eax, 15",
        "or r9d, eax",
        // lzcnt
        "mov eax, edi",
        "shr eax, 5",
        "and eax, 1",
        "shl eax, 16",
        "or r9d, eax",
        // Without the system saving YMM registers (XCR0 bits 1, 2) no FMA, AVX or
        // AVX2; without ZMM and mask registers (bits 5-7) no AVX-512.
        "mov eax, r10d",
        "and eax, 6",
        "cmp eax, 6",
        "je 6f",
        "and r9d, 0xfffffd7b",
        "6:",
        "mov eax, r10d",
        "and eax, 0xe6",
        "cmp eax, 0xe6",
        "je 7f",
        "and r9d, 0xffff07ff",
        "7:",
        // The required ones that are not present.
        "not r9",
        "and r9, r8",
        "mov rax, r9",
        "pop rbx",
        "ret",
    );

    #[cfg(target_arch = "x86_64")]
    extern "sysv64" {
        fn lancer_missing_isa(required: u64) -> u64;
    }

    /// The instruction sets of `required` (a mask by `ISAS`' order) that this
    /// processor lacks.
    #[inline(never)]
    pub fn missing(required: u64) -> u32 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the function above reads cpuid and XCR0 (the latter only when
        // OSXSAVE says it may), keeps the registers the convention asks, and
        // touches no memory beyond its own stack slot.
        let m = unsafe { lancer_missing_isa(required) } as u32;
        #[cfg(not(target_arch = "x86_64"))]
        let m = {
            let _ = required;
            0
        };
        m
    }
}

/// The message for a processor that lacks `missing` (a mask of
/// [`missing_instructions`]), in pieces: the caller that exits on it writes them
/// one by one, with no formatting code between the check and the message. It
/// names the release file for the best level the processor runs: v2 when only
/// v3's or v4's instructions are missing.
pub fn cpu_mismatch_pieces(missing: u32, piece: &mut dyn FnMut(&'static str)) {
    for p in [
        "lancer ",
        VERSION,
        " was built for ",
        CPU_LEVEL,
        " processors, and this processor lacks ",
    ] {
        piece(p);
    }
    let mut first = true;
    let mut below_v2 = false;
    for (i, isa) in ISAS.iter().enumerate() {
        if missing & (1 << i) != 0 {
            if !first {
                piece(", ");
            }
            piece(isa.name);
            first = false;
            below_v2 |= matches!(isa.name, "sse3" | "ssse3" | "sse4.1" | "sse4.2" | "popcnt");
        }
    }
    let (system, ext, help) = if cfg!(windows) {
        ("-windows-", ".exe", "INSTALL.txt")
    } else {
        ("-linux-", "", "docs/download.md")
    };
    let level = if below_v2 { "x86-64" } else { "x86-64-v2" };
    for p in [
        ": use lancer-",
        env!("CARGO_PKG_VERSION"),
        system,
        level,
        ext,
        " instead (",
        help,
        ")",
    ] {
        piece(p);
    }
}

/// The message of [`cpu_mismatch_pieces`] in one string.
pub fn cpu_mismatch(missing: u32) -> String {
    let mut text = String::new();
    cpu_mismatch_pieces(missing, &mut |p| text.push_str(p));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_machine_that_built_it_runs_it() {
        assert_eq!(missing_instructions(), 0);
    }

    /// The assembly's answer for every instruction set, against the flags Linux
    /// reads from the same processor.
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    #[test]
    fn the_check_agrees_with_the_kernel() {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap();
        let flags: Vec<&str> = cpuinfo
            .lines()
            .find_map(|l| l.strip_prefix("flags"))
            .and_then(|l| l.split_once(':'))
            .map(|(_, f)| f.split_whitespace().collect())
            .unwrap();
        let all = (1u64 << ISAS.len()) - 1;
        let missing = cpu::missing(all);
        for (i, isa) in ISAS.iter().enumerate() {
            let linux = match isa.name {
                "sse3" => "pni",
                "sse4.1" => "sse4_1",
                "sse4.2" => "sse4_2",
                "lzcnt" => "abm",
                n => n,
            };
            assert_eq!(
                missing & (1 << i) == 0,
                flags.contains(&linux),
                "{}: the check and /proc/cpuinfo disagree",
                isa.name
            );
        }
    }

    #[test]
    fn the_message_names_what_is_missing_and_the_file_to_take() {
        let avx2 = ISAS.iter().position(|i| i.name == "avx2").unwrap();
        let popcnt = ISAS.iter().position(|i| i.name == "popcnt").unwrap();
        let m = cpu_mismatch(1 << avx2);
        assert!(m.contains("lacks avx2: use lancer-"), "{m}");
        assert!(m.contains("-x86-64-v2"), "{m}");
        let m = cpu_mismatch(1 << avx2 | 1 << popcnt);
        assert!(m.contains("lacks popcnt, avx2"), "{m}");
        assert!(!m.contains("-v2"), "{m}");
        assert!(CPU_LEVEL.starts_with("x86-64") || CPU_LEVEL == "generic");
    }
}
