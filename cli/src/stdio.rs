//! Writing to standard output and standard error without panicking.
//!
//! `println!` panics when the write fails, and Rust ignores SIGPIPE, so
//! `cal mg unpack memory.mg | head` used to end in a panic once `head` closed
//! the pipe. Every subcommand prints through [`out!`]/[`outln!`] (standard
//! output) and [`errln!`] (standard error) instead:
//!
//! * standard output closed by the reader (EPIPE): the reader wants no more, so
//!   the program ends at once, quietly, with status 0;
//! * any other failure to write standard output (a full disk): one message on
//!   standard error and status 2, an I/O problem;
//! * standard error that cannot be written: the message is dropped (there is
//!   nowhere left to report it) and the program goes on.

use std::fmt;
use std::io::{self, Write};

/// Writes to standard output; see the module documentation for failures.
pub fn write_out(args: fmt::Arguments<'_>) {
    let mut out = io::stdout().lock();
    if let Err(e) = out.write_fmt(args) {
        drop(out);
        out_failed(&e);
    }
}

/// Writes to standard error, dropping the text when that fails.
pub fn write_err(args: fmt::Arguments<'_>) {
    let _ = io::stderr().lock().write_fmt(args);
}

/// Flushes standard output (before a prompt or the end of a stream); fails as [`write_out`].
pub fn flush_out() {
    if let Err(e) = io::stdout().lock().flush() {
        out_failed(&e);
    }
}

/// Ends the program after standard output failed: quietly when the reader went away.
pub fn out_failed(e: &io::Error) -> ! {
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    write_err(format_args!("error: cannot write standard output: {e}\n"));
    std::process::exit(2);
}

/// `print!` that never panics (see [`write_out`]).
macro_rules! out {
    ($($arg:tt)*) => { $crate::stdio::write_out(format_args!($($arg)*)) };
}

/// `println!` that never panics (see [`write_out`]).
macro_rules! outln {
    () => { $crate::stdio::write_out(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::stdio::write_out(format_args!("{}\n", format_args!($($arg)*))) };
}

/// `eprintln!` that never panics (see [`write_err`]).
macro_rules! errln {
    ($($arg:tt)*) => { $crate::stdio::write_err(format_args!("{}\n", format_args!($($arg)*))) };
}
