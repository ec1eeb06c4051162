//! The one source of randomness: a ChaCha8 stream per seed and index, identical on every
//! platform and version of `rand_chacha`, so a seed in a report reproduces the run.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// One random stream, for a front end that keeps one without naming the generator's crate.
pub type Stream = ChaCha8Rng;

/// The random stream `index` under `seed` (puzzle `index` of a generator, or a randomized
/// search's restarts).
pub fn stream(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}
