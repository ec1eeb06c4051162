//! Checks on the public benchmark corpora (placeholder replaced below).
