//! Report files: the form chosen by the file's extension, opened before a run (so that a path
//! that cannot be written fails at once), fed rows as they come, finished with the whole report.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::strategy::{self, Counter};

use super::csv::CsvWriter;
use super::json::{JsonWriter, write_line};
use super::{Report, Row};

/// The report forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The aligned table printed on standard output (`.txt`).
    Text,
    /// GitHub-flavoured Markdown (`.md`).
    Markdown,
    /// One record per row (`.csv`), streamed.
    Csv,
    /// The whole report, rows streamed first (`.json`); `sudolab report` reads it back.
    Json,
    /// One JSON object per row (`.jsonl`), streamed.
    JsonLines,
    /// One self-contained page with charts (`.html`).
    Html,
    /// The rows as a table in the Python package's schema (`.parquet`), streamed; binary, so
    /// outside [`Format::ALL`] and rendered by [`render_bytes`]. Written only by a build with
    /// the library's `parquet` feature (the `sudolab` command has it).
    Parquet,
}

/// A report path whose extension names no form.
#[derive(Debug, thiserror::Error)]
#[error(
    "{path}: cannot tell the report form from the extension '{extension}'; use .md, .csv, \
     .json, .jsonl, .html, .parquet or .txt"
)]
pub struct FormatError {
    /// The path.
    pub path: String,
    /// Its extension, lowercased.
    pub extension: String,
}

impl Format {
    /// Every text form ([`render`]), in the order an experiment's results directory lists them
    /// (its default forms); [`Format::Parquet`] is the one binary form.
    pub const ALL: [Format; 6] = [
        Format::Text,
        Format::Markdown,
        Format::Csv,
        Format::Json,
        Format::JsonLines,
        Format::Html,
    ];

    /// The form a path's extension names (case-insensitive).
    pub fn of(path: &Path) -> Result<Format, FormatError> {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        Format::from_extension(&extension).ok_or_else(|| FormatError {
            path: path.display().to_string(),
            extension,
        })
    }

    /// The form an extension names (`md`, `csv`, ...).
    pub fn from_extension(extension: &str) -> Option<Format> {
        Some(match extension {
            "txt" | "text" => Format::Text,
            "md" | "markdown" => Format::Markdown,
            "csv" => Format::Csv,
            "json" => Format::Json,
            "jsonl" | "ndjson" => Format::JsonLines,
            "html" | "htm" => Format::Html,
            "parquet" => Format::Parquet,
            _ => return None,
        })
    }

    /// The usual extension.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Text => "txt",
            Format::Markdown => "md",
            Format::Csv => "csv",
            Format::Json => "json",
            Format::JsonLines => "jsonl",
            Format::Html => "html",
            Format::Parquet => "parquet",
        }
    }
}

/// A report file that could not be opened or written.
#[derive(Debug, thiserror::Error)]
pub enum SinkError {
    /// No form for this extension.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// The file could not be written.
    // The cause is in the message and not the error's `source`, so a front end that prints
    // the chain of causes names it once.
    #[error("{path}: cannot write the report: {error}")]
    Write {
        /// The path.
        path: String,
        /// Why.
        error: io::Error,
    },
}

/// A report file, open for the run. It is written under a temporary name beside its path
/// (`.NAME.partial`) and renamed at [`Sink::finish`], so a run that dies half-way leaves an
/// existing report at the path untouched, never an empty or truncated one; a report of no
/// puzzle is not written at all (a run that read nothing replaces no earlier report).
pub struct Sink {
    path: PathBuf,
    partial: PathBuf,
    /// `None` once finished.
    writer: Option<Writer>,
}

impl Drop for Sink {
    /// A sink dropped unfinished (the run failed) removes its temporary file.
    fn drop(&mut self) {
        if self.writer.is_some() {
            let _ = std::fs::remove_file(&self.partial);
        }
        forget_partial(&self.partial);
    }
}

/// The temporary files of the sinks still open, for [`remove_partial_files`].
static PARTIALS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn forget_partial(partial: &Path) {
    if let Ok(mut partials) = PARTIALS.lock() {
        partials.retain(|path| path != partial);
    }
}

/// Removes the temporary files of every sink still open: for a process about to exit without
/// finishing its reports (a second Ctrl-C), which would otherwise leave `.NAME.partial` files.
pub fn remove_partial_files() {
    if let Ok(partials) = PARTIALS.lock() {
        for path in partials.iter() {
            let _ = std::fs::remove_file(path);
        }
    }
}

enum Writer {
    /// Rendered whole at the end.
    Whole(Format, BufWriter<File>),
    Csv(Box<CsvWriter<BufWriter<File>>>),
    Json(JsonWriter<BufWriter<File>>),
    JsonLines(BufWriter<File>),
    #[cfg(feature = "parquet")]
    Parquet(Box<super::parquet::ParquetWriter<BufWriter<File>>>),
}

impl Sink {
    /// Creates the file at `path` in the form its extension names; `counters` are the CSV
    /// columns (the union of the strategies' counters, [`counter_union`]).
    pub fn create(path: &Path, counters: &[Counter]) -> Result<Sink, SinkError> {
        let form = Format::of(path)?;
        let fail = |source: io::Error| SinkError::Write {
            path: path.display().to_string(),
            error: source,
        };
        #[cfg(not(feature = "parquet"))]
        if form == Format::Parquet {
            return Err(fail(no_parquet()));
        }
        let name = path.file_name().map_or_else(
            || "report".into(),
            |name| name.to_string_lossy().into_owned(),
        );
        let partial = path.with_file_name(format!(".{name}.partial"));
        let out = BufWriter::new(File::create(&partial).map_err(fail)?);
        let writer = match form {
            Format::Csv => Writer::Csv(Box::new(
                CsvWriter::new(out, counters.to_vec()).map_err(|err| fail(err.into()))?,
            )),
            Format::Json => Writer::Json(JsonWriter::new(out).map_err(fail)?),
            Format::JsonLines => Writer::JsonLines(out),
            #[cfg(feature = "parquet")]
            Format::Parquet => Writer::Parquet(Box::new(
                super::parquet::ParquetWriter::new(out, counters)
                    .map_err(|err| fail(parquet_error(err)))?,
            )),
            form => Writer::Whole(form, out),
        };
        if let Ok(mut partials) = PARTIALS.lock() {
            partials.push(partial.clone());
        }
        Ok(Sink {
            path: path.to_path_buf(),
            partial,
            writer: Some(writer),
        })
    }

    /// Where it writes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Takes one row (written now by the streamed forms).
    pub fn row(&mut self, row: &Row) -> Result<(), SinkError> {
        let result = match self.writer.as_mut().expect("rows come before finish") {
            Writer::Whole(..) => Ok(()),
            Writer::Csv(writer) => writer.write(row).map_err(io::Error::from),
            Writer::Json(writer) => writer.write(row),
            Writer::JsonLines(out) => write_line(out, row),
            #[cfg(feature = "parquet")]
            Writer::Parquet(writer) => writer.write(row).map_err(parquet_error),
        };
        result.map_err(|source| self.error(source))
    }

    /// Ends the file with the whole report and puts it at its path; a report of no puzzle is
    /// dropped instead, its temporary file removed and the path left as it was.
    pub fn finish(mut self, report: &Report) -> Result<(), SinkError> {
        if report.puzzles == 0 {
            // `drop` removes the temporary file of a sink still holding its writer.
            return Ok(());
        }
        let writer = self.writer.take().expect("a sink is finished once");
        let result = match writer {
            Writer::Whole(form, mut out) => out
                .write_all(render(form, report).as_bytes())
                .and_then(|()| out.flush()),
            Writer::Csv(writer) => writer
                .finish()
                .and_then(|out| end_streamed(out, super::csv::incomplete_line(report))),
            Writer::Json(writer) => writer.finish(report).map(drop),
            Writer::JsonLines(out) => end_streamed(out, super::json::incomplete_line(report)),
            #[cfg(feature = "parquet")]
            Writer::Parquet(writer) => writer
                .finish(report)
                .map_err(parquet_error)
                .and_then(|mut out| out.flush()),
        };
        result
            .and_then(|()| std::fs::rename(&self.partial, &self.path))
            .map_err(|source| SinkError::Write {
                path: self.path.display().to_string(),
                error: source,
            })
    }

    fn error(&self, source: io::Error) -> SinkError {
        SinkError::Write {
            path: self.path.display().to_string(),
            error: source,
        }
    }
}

/// Ends a streamed form: its incompleteness mark, if any, then a flush.
fn end_streamed(mut out: BufWriter<File>, mark: Option<String>) -> io::Result<()> {
    if let Some(mark) = mark {
        out.write_all(mark.as_bytes())?;
    }
    out.flush()
}

/// A Parquet writer's error, as the other forms' writing errors are.
#[cfg(feature = "parquet")]
fn parquet_error(err: parquet::errors::ParquetError) -> io::Error {
    match err {
        parquet::errors::ParquetError::External(err) => match err.downcast::<io::Error>() {
            Ok(err) => *err,
            Err(err) => io::Error::other(err),
        },
        err => io::Error::other(err),
    }
}

/// Why a build without the `parquet` feature writes no Parquet report.
#[cfg(not(feature = "parquet"))]
fn no_parquet() -> io::Error {
    io::Error::other(
        "this build writes no Parquet (its sudolab library lacks the `parquet` feature); \
         use .csv, .json or .jsonl for the rows",
    )
}

/// Renders a whole report in any form: a text form as [`render`] does, Parquet as its file.
pub fn render_bytes(form: Format, report: &Report) -> io::Result<Vec<u8>> {
    match form {
        #[cfg(feature = "parquet")]
        Format::Parquet => super::parquet::render(report).map_err(parquet_error),
        #[cfg(not(feature = "parquet"))]
        Format::Parquet => Err(no_parquet()),
        form => Ok(render(form, report).into_bytes()),
    }
}

/// Renders a whole report in a text form (one of [`Format::ALL`]).
///
/// # Panics
///
/// For [`Format::Parquet`], which is binary: [`render_bytes`] renders every form.
pub fn render(form: Format, report: &Report) -> String {
    match form {
        Format::Parquet => panic!("Parquet is binary: render it with `render_bytes`"),
        Format::Text => super::text::render(report, false),
        Format::Markdown => super::markdown::render(report),
        Format::Html => super::html::render(report),
        Format::Json => {
            let mut text = serde_json::to_string_pretty(report).expect("a report serializes");
            text.push('\n');
            text
        }
        Format::Csv | Format::JsonLines => {
            let mut out = Vec::new();
            if form == Format::Csv {
                let counters = counter_union(&report.strategies);
                let mut writer =
                    CsvWriter::new(&mut out, counters).expect("writing to memory cannot fail");
                for row in &report.rows {
                    writer.write(row).expect("writing to memory cannot fail");
                }
                writer.finish().expect("writing to memory cannot fail");
                out.extend(
                    super::csv::incomplete_line(report)
                        .unwrap_or_default()
                        .bytes(),
                );
            } else {
                for row in &report.rows {
                    write_line(&mut out, row).expect("writing to memory cannot fail");
                }
                out.extend(
                    super::json::incomplete_line(report)
                        .unwrap_or_default()
                        .bytes(),
                );
            }
            String::from_utf8(out).expect("rows are UTF-8")
        }
    }
}

/// Every counter any of these strategies reports, in counter order.
pub fn counter_union(names: &[String]) -> Vec<Counter> {
    let mut counters: Vec<Counter> = names
        .iter()
        .filter_map(|name| strategy::find(name).ok())
        .flat_map(|strategy| strategy.counters().iter().copied())
        .collect();
    counters.sort_unstable();
    counters.dedup();
    counters
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_come_from_extensions_with_a_clear_error() {
        assert_eq!(Format::of(Path::new("r.HTML")).ok(), Some(Format::Html));
        assert_eq!(
            Format::of(Path::new("r.parquet")).ok(),
            Some(Format::Parquet)
        );
        assert!(!Format::ALL.contains(&Format::Parquet), "the text forms");
        for form in Format::ALL {
            assert_eq!(Format::from_extension(form.extension()), Some(form));
        }
        assert_eq!(
            Format::of(Path::new("r.pdf")).unwrap_err().to_string(),
            "r.pdf: cannot tell the report form from the extension 'pdf'; use .md, .csv, \
             .json, .jsonl, .html, .parquet or .txt"
        );
    }

    #[test]
    fn partial_files_of_open_sinks_can_be_removed_before_an_exit() {
        let dir = std::env::temp_dir().join(format!("sudolab-sink-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.csv");
        let sink = Sink::create(&path, &[]).unwrap();
        let partial = dir.join(".r.csv.partial");
        assert!(partial.exists());
        // What the second Ctrl-C does before exiting: no half-written report stays behind.
        remove_partial_files();
        assert!(!partial.exists());
        assert!(!path.exists());
        drop(sink);
        assert!(PARTIALS.lock().unwrap().iter().all(|p| p != &partial));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
