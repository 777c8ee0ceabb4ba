//! Writing samples as CSV or JSON, columns per `cli.md`.

use serde_json::json;

/// A table: column names and rows (None = empty cell).
pub struct Table {
    pub comment: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
}

/// One cell.
#[derive(Clone)]
pub enum Cell {
    Text(String),
    Number(f64),
    Empty,
}

impl Table {
    /// CSV with a `#` comment line first.
    pub fn to_csv(&self) -> String {
        let mut out = format!(
            "# {}\n{}\n",
            self.comment,
            self.columns.iter().map(|c| csv_field(c)).collect::<Vec<_>>().join(",")
        );
        for row in &self.rows {
            let cells: Vec<String> = row
                .iter()
                .map(|c| match c {
                    Cell::Text(s) => csv_field(s),
                    Cell::Number(x) => format!("{x:?}"),
                    Cell::Empty => String::new(),
                })
                .collect();
            out.push_str(&cells.join(","));
            out.push('\n');
        }
        out
    }

    /// `{"comment": …, "columns": […], "rows": [[…]]}` with null for empty cells.
    pub fn to_json(&self) -> String {
        let rows: Vec<Vec<serde_json::Value>> = self
            .rows
            .iter()
            .map(|r| {
                r.iter()
                    .map(|c| match c {
                        Cell::Text(s) => json!(s),
                        Cell::Number(x) => json!(x),
                        Cell::Empty => serde_json::Value::Null,
                    })
                    .collect()
            })
            .collect();
        json!({"comment": self.comment, "columns": self.columns, "rows": rows}).to_string()
    }
}

/// Quotes a field when it holds a comma, quote or newline (names may hold primes).
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
