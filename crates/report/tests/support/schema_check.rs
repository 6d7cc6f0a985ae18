//! A small JSON Schema (2020-12) validator for the subset the schema files
//! use: `$ref` to `#/$defs/...`, `anyOf`, `type` (one or a list), `enum`,
//! `properties`, `required`, `additionalProperties: false`, `items`,
//! `minimum`. Shared by the analysis and comparison schema tests.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::collections::BTreeSet;

use serde_json::Value;

pub struct Validator<'a> {
    root: &'a Value,
    errors: Vec<String>,
    defs_used: BTreeSet<String>,
}

impl Validator<'_> {
    fn check(&mut self, s: &Value, v: &Value, at: &str) {
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            let name = r.strip_prefix("#/$defs/").expect("only #/$defs/ refs");
            self.defs_used.insert(name.to_string());
            let def = &self.root["$defs"][name];
            assert!(!def.is_null(), "dangling $ref {r}");
            self.check(def, v, at);
            return;
        }
        if let Some(any) = s.get("anyOf").and_then(Value::as_array) {
            let mut ok = false;
            for alt in any {
                let mut sub = Validator {
                    root: self.root,
                    errors: Vec::new(),
                    defs_used: BTreeSet::new(),
                };
                sub.check(alt, v, at);
                if sub.errors.is_empty() {
                    ok = true;
                    self.defs_used.extend(sub.defs_used);
                    break;
                }
            }
            if !ok {
                self.errors
                    .push(format!("{at}: matches no anyOf alternative"));
            }
            return;
        }
        if let Some(ty) = s.get("type") {
            let types: Vec<&str> = match ty {
                Value::String(t) => vec![t.as_str()],
                Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
                _ => panic!("bad type in schema at {at}"),
            };
            if !types.iter().any(|t| type_ok(t, v)) {
                self.errors
                    .push(format!("{at}: {v} is not of type {types:?}"));
                return;
            }
        }
        if let Some(e) = s.get("enum").and_then(Value::as_array)
            && !e.contains(v)
        {
            self.errors.push(format!("{at}: {v} not in {e:?}"));
        }
        if let (Some(min), Some(x)) = (s.get("minimum").and_then(Value::as_f64), v.as_f64())
            && x < min
        {
            self.errors.push(format!("{at}: {x} < minimum {min}"));
        }
        if let Value::Object(o) = v {
            let props = s.get("properties").and_then(Value::as_object);
            for req in s
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let k = req.as_str().unwrap();
                if !o.contains_key(k) {
                    self.errors.push(format!("{at}: missing required `{k}`"));
                }
            }
            for (k, val) in o {
                match props.and_then(|p| p.get(k)) {
                    Some(ps) => self.check(ps, val, &format!("{at}.{k}")),
                    None if s.get("additionalProperties") == Some(&Value::Bool(false)) => {
                        self.errors.push(format!(
                            "{at}: `{k}` is not in the schema (update the schema file)"
                        ));
                    }
                    None => {}
                }
            }
        }
        if let (Value::Array(a), Some(items)) = (v, s.get("items")) {
            for (i, x) in a.iter().enumerate() {
                self.check(items, x, &format!("{at}[{i}]"));
            }
        }
    }
}

fn type_ok(t: &str, v: &Value) -> bool {
    match t {
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.is_u64() || v.is_i64(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        other => panic!("unknown type {other}"),
    }
}

/// The errors of `v` against the schema `root`, and the definitions it reached.
pub fn validate_against(root: &Value, v: &Value) -> (Vec<String>, BTreeSet<String>) {
    let mut val = Validator {
        root,
        errors: Vec::new(),
        defs_used: BTreeSet::new(),
    };
    val.check(root, v, "$");
    (val.errors, val.defs_used)
}

/// Keywords of `schema` the validator does not know (a schema must use none).
pub fn unknown_keywords(schema: &Value) -> Vec<String> {
    fn walk(v: &Value, in_properties: bool, bad: &mut Vec<String>) {
        match v {
            Value::Object(o) => {
                for (k, x) in o {
                    let known = [
                        "$schema",
                        "$id",
                        "$ref",
                        "$defs",
                        "title",
                        "description",
                        "type",
                        "enum",
                        "properties",
                        "required",
                        "additionalProperties",
                        "items",
                        "anyOf",
                        "minimum",
                    ];
                    if !in_properties && !known.contains(&k.as_str()) {
                        bad.push(k.clone());
                    }
                    let child_is_map = k == "properties" || k == "$defs";
                    walk(x, child_is_map, bad);
                }
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, false, bad)),
            _ => {}
        }
    }
    let mut bad = Vec::new();
    walk(schema, false, &mut bad);
    bad
}

/// The errors of `v` against the schema `root` (empty when it validates).
pub fn errors(root: &Value, v: &Value) -> Vec<String> {
    validate_against(root, v).0
}
