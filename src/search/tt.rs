//! The transposition table: shared by all search threads without locks. Each entry
//! is two `AtomicU64`s, the key stored xor-ed with the data, so a torn write (one word
//! from one thread, one from another) fails the key check instead of giving bad data.

use crate::rules::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Kind of bound a stored score is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// No bound (empty).
    None = 0,
    /// Score is at most this (fail low).
    Upper = 1,
    /// Score is at least this (fail high).
    Lower = 2,
    /// Exact score.
    Exact = 3,
}

/// What a search stores for a position, and a probe gives back.
#[derive(Clone, Copy, Debug)]
pub struct Record {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
    /// The node is (or was, when stored) on a principal variation.
    pub pv: bool,
}

/// What a probe returns.
pub type TtHit = Record;

/// The depth's bits and the PV flag's bit in the key word's low byte.
const DEPTH_BITS: u64 = 0x7F;
const PV_BIT: u64 = 0x80;

#[derive(Default)]
struct Entry {
    key: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 4;

/// Four entries on one cache line, so that a probe costs at most one miss.
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket([Entry; BUCKET]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// The table.
pub struct Tt {
    buckets: Vec<Bucket>,
    age: AtomicU8,
}

fn pack(mv: Move, score: i32, eval: i32, bound: Bound) -> u64 {
    (mv.0 as u64 & 0x3FFF_FFFF)
        | ((score.clamp(-32767, 32767) as i16 as u16 as u64) << 30)
        | ((eval.clamp(-32767, 32767) as i16 as u16 as u64) << 46)
        | ((bound as u64) << 62)
}

/// Data layout (64 bits): move 30 | score 16 | eval 16 | bound 2. Depth (7 bits), the
/// PV flag (1 bit) and age (8 bits) live in the key word's low 16 bits, which the key
/// check ignores.
fn unpack(data: u64) -> (Move, i32, i32, Bound) {
    let mv = Move((data & 0x3FFF_FFFF) as u32);
    let score = ((data >> 30) & 0xFFFF) as u16 as i16 as i32;
    let eval = ((data >> 46) & 0xFFFF) as u16 as i16 as i32;
    let bound = match data >> 62 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => Bound::None,
    };
    (mv, score, eval, bound)
}

/// Buckets in a table of about `mb` megabytes (at least one).
fn buckets_for(mb: usize) -> usize {
    let bytes = mb.max(1).saturating_mul(1024 * 1024);
    (bytes / std::mem::size_of::<Bucket>()).max(1)
}

/// Room for `len` buckets (an empty vector), or none when the memory cannot be had.
/// The room is marked for the kernel's large pages before anything writes it: a probe
/// lands on a random bucket, and with 4 KB pages most probes of a large table would
/// also miss the processor's page cache (the TLB).
fn reserve_buckets(len: usize) -> Option<Vec<Bucket>> {
    let mut buckets: Vec<Bucket> = Vec::new();
    buckets.try_reserve_exact(len).ok()?;
    os::advise_huge(
        buckets.as_mut_ptr() as usize,
        len * std::mem::size_of::<Bucket>(),
    );
    Some(buckets)
}

/// The two calls to the system this file makes; the only unsafe code of the crate.
#[allow(unsafe_code)]
mod os {
    #[cfg(target_os = "linux")]
    unsafe extern "C" {
        fn madvise(
            addr: *mut core::ffi::c_void,
            len: usize,
            advice: core::ffi::c_int,
        ) -> core::ffi::c_int;
    }

    /// Asks Linux to back `[addr, addr + len)` with transparent huge pages where it
    /// can (MADV_HUGEPAGE); a refusal changes nothing but speed.
    pub fn advise_huge(addr: usize, len: usize) {
        #[cfg(target_os = "linux")]
        {
            const MADV_HUGEPAGE: core::ffi::c_int = 14;
            const HUGE: usize = 2 << 20;
            // Only whole 2 MB pages inside the range can be huge.
            let start = addr.next_multiple_of(HUGE);
            let end = (addr + len) / HUGE * HUGE;
            if end > start {
                // SAFETY: the range lies inside memory this process owns (a reserved
                // allocation); the advice alters neither its contents nor its mapping.
                unsafe {
                    madvise(start as *mut core::ffi::c_void, end - start, MADV_HUGEPAGE);
                }
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = (addr, len);
    }

    /// A hint to load the cache line at `p` (a prefetch never faults, even on a bad
    /// address, and reads nothing into the program).
    #[inline(always)]
    pub fn prefetch<T>(p: *const T) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: see above; SSE is part of every x86-64 processor.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = p;
    }
}

/// Memory the system can still hand out without swapping (Linux `MemAvailable`).
#[cfg(target_os = "linux")]
fn available_bytes() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb: usize = text
        .lines()
        .find(|l| l.starts_with("MemAvailable:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb.saturating_mul(1024))
}

#[cfg(not(target_os = "linux"))]
fn available_bytes() -> Option<usize> {
    None
}

impl Tt {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Tt {
        let len = buckets_for(mb);
        let mut buckets = reserve_buckets(len).expect("memory for the transposition table");
        buckets.resize_with(len, Bucket::default);
        Tt {
            buckets,
            age: AtomicU8::new(0),
        }
    }

    /// Size of the table in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Replaces the table by an empty one of about `mb` megabytes without ever
    /// aborting: when the memory cannot be had the error says so and this table
    /// stays as it was (contents included). The new memory is reserved before the
    /// old table is freed, but written only after: the peak is the larger of the
    /// two tables, not their sum. A table larger than the memory the system has
    /// available is refused too, since writing it would wake the OOM killer (which
    /// a failed allocation never does on Linux's default overcommit).
    pub fn try_resize(&mut self, mb: usize) -> Result<(), String> {
        let len = buckets_for(mb);
        let bytes = len
            .checked_mul(std::mem::size_of::<Bucket>())
            .ok_or_else(|| format!("{mb} MB is more than this machine can address"))?;
        if let Some(avail) = available_bytes() {
            if bytes > avail.saturating_add(self.bytes()) {
                return Err(format!(
                    "not enough memory for {mb} MB ({} MB available)",
                    (avail + self.bytes()) >> 20
                ));
            }
        }
        let mut buckets = reserve_buckets(len).ok_or_else(|| format!("cannot allocate {mb} MB"))?;
        self.buckets = Vec::new();
        buckets.resize_with(len, Bucket::default);
        self.buckets = buckets;
        self.age.store(0, Ordering::Relaxed);
        Ok(())
    }

    /// Every entry, bucket by bucket.
    fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.buckets.iter().flat_map(|b| &b.0)
    }

    /// Empties every entry.
    pub fn clear(&self) {
        for e in self.entries() {
            e.key.store(0, Ordering::Relaxed);
            e.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search (older entries become easier to replace).
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[(((key as u128) * (self.buckets.len() as u128)) >> 64) as usize]
    }

    /// Brings `key`'s bucket toward the cache, so that its probe soon after (the
    /// child's, once its move is made) waits less.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        os::prefetch(self.bucket(key));
    }

    /// Looks `key` up.
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for e in &self.bucket(key).0 {
            let data = e.data.load(Ordering::Relaxed);
            let k = e.key.load(Ordering::Relaxed);
            if (k ^ data) & !0xFFFF == key & !0xFFFF && data != 0 {
                let meta = (k ^ data) & 0xFFFF;
                let (mv, score, eval, bound) = unpack(data);
                return Some(Record {
                    mv,
                    score,
                    eval,
                    depth: (meta & DEPTH_BITS) as i32,
                    bound,
                    pv: meta & PV_BIT != 0,
                });
            }
        }
        None
    }

    /// Stores a result, replacing the shallowest or oldest entry of the bucket.
    pub fn store(&self, key: u64, mut r: Record) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = &self.bucket(key).0;
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, e) in bucket.iter().enumerate() {
            let data = e.data.load(Ordering::Relaxed);
            let k = e.key.load(Ordering::Relaxed);
            let meta = (k ^ data) & 0xFFFF;
            if data == 0 {
                victim = i;
                break;
            }
            if (k ^ data) & !0xFFFF == key & !0xFFFF {
                // Same position: keep the old move when the new result has none.
                if r.mv == Move::NONE {
                    r.mv = unpack(data).0;
                }
                let d = (meta & DEPTH_BITS) as i32;
                if r.bound == Bound::Exact || r.depth + 3 >= d || ((meta >> 8) as u8) != age {
                    Self::write(e, key, &r, age);
                }
                return;
            }
            let e_age = (meta >> 8) as u8;
            let value = (meta & DEPTH_BITS) as i32 - 8 * (age.wrapping_sub(e_age) as i32);
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        Self::write(&bucket[victim], key, &r, age);
    }

    fn write(e: &Entry, key: u64, r: &Record, age: u8) {
        let data = pack(r.mv, r.score, r.eval, r.bound);
        let pv = if r.pv { PV_BIT } else { 0 };
        let meta = (r.depth.clamp(0, DEPTH_BITS as i32) as u64) | pv | ((age as u64) << 8);
        e.data.store(data, Ordering::Relaxed);
        e.key
            .store(((key & !0xFFFF) | meta) ^ data, Ordering::Relaxed);
    }

    /// Permille of the first thousand entries used in the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let n = (self.buckets.len() * BUCKET).min(1000);
        let used = self
            .entries()
            .take(n)
            .filter(|e| {
                let data = e.data.load(Ordering::Relaxed);
                let k = e.key.load(Ordering::Relaxed);
                data != 0 && (((k ^ data) >> 8) & 0xFF) as u8 == age
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let tt = Tt::new(1);
        let m = Move::normal(12, 28);
        let r = |score, eval, depth, bound, pv| Record {
            mv: m,
            score,
            eval,
            depth,
            bound,
            pv,
        };
        tt.store(0xDEAD_BEEF_0000_1234, r(-250, 17, 9, Bound::Lower, true));
        let h = tt.probe(0xDEAD_BEEF_0000_1234).unwrap();
        assert!(h.pv);
        assert_eq!(h.mv, m);
        assert_eq!(h.score, -250);
        assert_eq!(h.eval, 17);
        assert_eq!(h.depth, 9);
        assert_eq!(h.bound, Bound::Lower);
        assert!(tt.probe(0x1111_2222_3333_4444).is_none());
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF_0000_1234).is_none());
    }

    #[test]
    fn a_failed_resize_keeps_the_table() {
        let mut tt = Tt::new(1);
        let m = Move::normal(12, 28);
        let r = Record {
            mv: m,
            score: 5,
            eval: 5,
            depth: 3,
            bound: Bound::Exact,
            pv: false,
        };
        tt.store(0x1234_5678_9ABC_0000, r);
        assert!(!tt.probe(0x1234_5678_9ABC_0000).unwrap().pv);
        // No machine has this much memory: refused, and the table is untouched.
        let e = tt.try_resize(usize::MAX >> 21).unwrap_err();
        assert!(e.contains("MB"), "{e}");
        assert_eq!(tt.bytes(), Tt::new(1).bytes());
        assert_eq!(tt.probe(0x1234_5678_9ABC_0000).map(|h| h.mv), Some(m));
        tt.try_resize(2).unwrap();
        assert_eq!(tt.bytes(), Tt::new(2).bytes());
        assert!(tt.probe(0x1234_5678_9ABC_0000).is_none());
    }
}
