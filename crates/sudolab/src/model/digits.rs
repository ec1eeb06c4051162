//! Sets of digits `1..=64` as one machine word.

use std::fmt;

/// A set of digits `1..=64`; digit `d` is bit `d - 1`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct DigitSet(u64);

impl DigitSet {
    /// The empty set.
    pub const EMPTY: DigitSet = DigitSet(0);

    /// Every digit `1..=side`.
    pub fn full(side: usize) -> DigitSet {
        if side >= 64 {
            DigitSet(u64::MAX)
        } else {
            DigitSet((1u64 << side) - 1)
        }
    }

    /// The set holding only `digit`.
    pub fn single(digit: u8) -> DigitSet {
        debug_assert!((1..=64).contains(&digit), "digits are 1..=64");
        DigitSet(1u64 << (digit - 1))
    }

    /// The raw bits, digit `d` at bit `d - 1`.
    pub fn bits(self) -> u64 {
        self.0
    }

    /// A set from raw bits.
    pub fn from_bits(bits: u64) -> DigitSet {
        DigitSet(bits)
    }

    /// Whether `digit` is in the set.
    pub fn contains(self, digit: u8) -> bool {
        self.0 & DigitSet::single(digit).0 != 0
    }

    /// Adds `digit`.
    pub fn insert(&mut self, digit: u8) {
        self.0 |= DigitSet::single(digit).0;
    }

    /// Removes `digit`.
    pub fn remove(&mut self, digit: u8) {
        self.0 &= !DigitSet::single(digit).0;
    }

    /// How many digits the set holds.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The digits, ascending.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let digit = bits.trailing_zeros() as u8 + 1;
            bits &= bits - 1;
            Some(digit)
        })
    }
}

impl fmt::Debug for DigitSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_ascending_up_to_64() {
        let mut set = DigitSet::EMPTY;
        for digit in [64, 1, 9, 33] {
            set.insert(digit);
        }
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![1, 9, 33, 64]);
        assert_eq!(set.len(), 4);
        set.remove(9);
        assert!(!set.contains(9));
        assert_eq!(DigitSet::full(64).len(), 64);
        assert_eq!(DigitSet::full(9).bits(), 0x1ff);
    }
}
