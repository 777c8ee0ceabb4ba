//! Work spread over threads: items handed out in chunks to threads that each keep
//! their own worker (a copy of the model, its numeric form, …), the results put back
//! in the items' order. What an item gives depends on the item alone, so the results
//! are the same, bit for bit, on any number of threads.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// `work(worker, k)` for every `k < count`, on at most `threads` threads (at least
/// one), each with a worker made by `worker`; the results in order of `k`. Threads
/// take `chunk` items at a time.
pub fn spread<W, T: Send>(
    count: usize,
    threads: usize,
    chunk: usize,
    worker: impl Fn() -> W + Sync,
    work: impl Fn(&mut W, usize) -> T + Sync,
) -> Vec<T> {
    let chunk = chunk.max(1);
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, T)>> = Mutex::new(Vec::with_capacity(count));
    let threads = threads.clamp(1, count.div_ceil(chunk).max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut mine = worker();
                loop {
                    let start = next.fetch_add(chunk, Ordering::Relaxed);
                    if start >= count {
                        break;
                    }
                    let results: Vec<_> =
                        (start..(start + chunk).min(count)).map(|k| (k, work(&mut mine, k))).collect();
                    done.lock().expect("no thread panics holding it").extend(results);
                }
            });
        }
    });
    let mut done = done.into_inner().expect("no thread panics holding it");
    done.sort_by_key(|(k, _)| *k);
    done.into_iter().map(|(_, r)| r).collect()
}
