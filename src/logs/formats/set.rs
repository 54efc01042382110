//! One file, several shapes: the line formats of one file, with the columns of
//! each. A file's format is chosen from its first lines; when it was detected (no
//! `--input-format` or `--log-format`), a line that format does not read may be read by
//! another (a configuration changed mid-file, two containers' logs in one), found from that
//! line, so the file goes on with both. At most [`MAX_FORMATS`] per file. The set is shared
//! by the pieces a file is read in, so a format has one index in all of them.

use std::fmt;
use std::sync::{Arc, Mutex};

use super::{ColumnMap, LineFormat};

/// The most line formats one file is read with.
pub const MAX_FORMATS: usize = 4;

/// One of a file's line formats and the columns of its fields.
#[derive(Debug)]
pub struct FileFormat {
    pub format: Arc<dyn LineFormat>,
    pub columns: ColumnMap,
    /// Each line's fields end with its envelope's time (a format without a time of its own).
    pub time_field: bool,
}

/// A format found in a file: read, or refused (its lines cannot be rows beside the file's
/// first format's: it lacks a role the file's figures need), with why.
#[derive(Debug, Clone)]
pub enum Found {
    Read(Arc<FileFormat>),
    Refused {
        name: String,
        why: String,
        format: Arc<dyn LineFormat>,
    },
}

impl Found {
    pub fn name(&self) -> String {
        match self {
            Found::Read(f) => f.format.describe(),
            Found::Refused { name, .. } => name.clone(),
        }
    }

    /// A bad row's reason for a line of a refused format.
    pub fn refusal(&self) -> String {
        match self {
            Found::Read(f) => format!("read as {}", f.format.describe()),
            Found::Refused { name, why, .. } => format!(
                "read as {name}, a second format in this file, which cannot be counted beside the first: {why}"
            ),
        }
    }
}

/// Makes a found format's columns, or says why its lines cannot be rows of the file.
pub type MakeFormat = dyn Fn(Arc<dyn LineFormat>) -> Result<FileFormat, String> + Send + Sync;
/// Finds the format of one line (the detection's order), if any reads it.
pub type Discover = dyn Fn(&[u8]) -> Option<Box<dyn LineFormat>> + Send + Sync;

/// A file's line formats: the first, and those found as its lines go on.
pub struct FormatSet {
    first: Arc<FileFormat>,
    found: Mutex<Vec<Found>>,
    make: Box<MakeFormat>,
    /// `None` when the format was named by the flags: then no other is looked for.
    discover: Option<Box<Discover>>,
}

impl fmt::Debug for FormatSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FormatSet")
            .field("found", &self.all())
            .field("discovers", &self.discover.is_some())
            .finish()
    }
}

impl FormatSet {
    /// The set of a file read with `first` only (the format was named).
    pub fn one(first: FileFormat) -> FormatSet {
        let first = Arc::new(first);
        FormatSet {
            found: Mutex::new(vec![Found::Read(Arc::clone(&first))]),
            first,
            make: Box::new(|_| Err("the format was named".into())),
            discover: None,
        }
    }

    /// The set of a detected file: `first`, the formats `also` found among its first lines,
    /// and whatever `discover` finds later, each made by `make`.
    pub fn detected(
        first: FileFormat,
        also: Vec<Arc<dyn LineFormat>>,
        make: Box<MakeFormat>,
        discover: Box<Discover>,
    ) -> FormatSet {
        let first = Arc::new(first);
        let set = FormatSet {
            found: Mutex::new(vec![Found::Read(Arc::clone(&first))]),
            first,
            make,
            discover: Some(discover),
        };
        for format in also {
            set.add(format);
        }
        set
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Found>> {
        self.found.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The file's first format.
    pub fn first(&self) -> Arc<FileFormat> {
        Arc::clone(&self.first)
    }

    /// Every format found so far, in the order found (the first at index 0).
    pub fn all(&self) -> Vec<Found> {
        self.lock().clone()
    }

    /// Formats found so far.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Other formats may be found.
    pub fn discovers(&self) -> bool {
        self.discover.is_some()
    }

    /// The index of `format` in the set (the one of that name already there, or added: read
    /// or refused); `None` when the set holds [`MAX_FORMATS`] read formats already.
    fn add(&self, format: Arc<dyn LineFormat>) -> Option<usize> {
        let name = format.describe();
        if let Some(i) = self.lock().iter().position(|f| f.name() == name) {
            return Some(i);
        }
        let made = (self.make)(Arc::clone(&format));
        let mut found = self.lock();
        // Another piece may have added it meanwhile.
        if let Some(i) = found.iter().position(|f| f.name() == name) {
            return Some(i);
        }
        let read = found.iter().filter(|f| matches!(f, Found::Read(_))).count();
        match made {
            Ok(f) if read < MAX_FORMATS => found.push(Found::Read(Arc::new(f))),
            Ok(_) => return None,
            Err(why) => found.push(Found::Refused { name, why, format }),
        }
        Some(found.len() - 1)
    }

    /// The format that reads `line`, found from it and added to the set: its index.
    pub fn discover(&self, line: &[u8]) -> Option<usize> {
        let format = (self.discover.as_ref()?)(line)?;
        self.add(Arc::from(format))
    }
}
