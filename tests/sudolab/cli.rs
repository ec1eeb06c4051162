//! The command line, run as a user would: arguments, standard streams and exit codes.

#[test]
fn placeholder_until_written() {}
