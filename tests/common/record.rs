//! One output line of the C and C++ example programs: its first word, and
//! its `key=value` words. Shared by the helper modules `tests/common` and
//! `tests/ctools`.

use std::collections::HashMap;

/// One output line: its first word, and its `key=value` words.
pub struct Record {
    pub kind: String,
    fields: HashMap<String, String>,
}

impl Record {
    pub fn parse(line: &str) -> Self {
        let mut words = line.split_whitespace();
        let kind = words.next().unwrap_or_default().to_owned();
        let fields = words
            .filter_map(|w| w.split_once('='))
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
        Self { kind, fields }
    }

    pub fn str(&self, key: &str) -> &str {
        self.fields
            .get(key)
            .unwrap_or_else(|| panic!("a `{}` line has no `{key}=`", self.kind))
    }

    pub fn num<T: std::str::FromStr>(&self, key: &str) -> T {
        let value = self.str(key);
        value
            .parse()
            .unwrap_or_else(|_| panic!("`{key}={value}` is not a number"))
    }

    pub fn vec(&self, key: &str) -> [f32; 3] {
        let parts: Vec<f32> = self
            .str(key)
            .split(',')
            .map(|x| x.parse().expect("a coordinate"))
            .collect();
        parts.try_into().expect("three coordinates")
    }
}
