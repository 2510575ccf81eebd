import { type FailureCase, pad, pick, variants } from './failure-case';

const CRATES = ['shop', 'api_server', 'worker', 'cli_tool'];
const cargoToml = (v: number, deps = '') =>
  `[package]\nname = "${pick(CRATES, v)}"\nversion = "0.${v}.0"\nedition = "2021"\n\n[dependencies]\n${deps}`;
/** One command family (`cargo build`), other flags: a fix is learned per command family. */
const CARGO = [
  'cargo build --offline',
  'cargo build --offline --release',
  'cargo build --offline -q',
];

/** A crate whose main.rs fails to compile, at a line that moves with the setting. */
function rustCase(name: string, fix: string, body: (v: number) => string, n = 3): FailureCase {
  return {
    ecosystem: 'rust',
    name,
    fix,
    tool: 'cargo',
    runs: variants(n, (v) => ({
      command: pick(CARGO, v),
      files: { 'Cargo.toml': cargoToml(v), 'src/main.rs': `${pad(v)}${body(v)}\n` },
    })),
  };
}

function rustcCase(name: string, fix: string, body: (v: number) => string, n = 2): FailureCase {
  const file = (v: number) => pick(['main.rs', 'hello.rs', 'tool.rs'], v);
  return {
    ecosystem: 'rust',
    name,
    fix,
    tool: 'rustc',
    runs: variants(n, (v) => ({
      command: `rustc ${file(v)}`,
      files: { [file(v)]: `${pad(v)}${body(v)}\n` },
    })),
  };
}

export const RUST_CASES: FailureCase[] = [
  rustCase(
    'e0308-mismatched',
    'fix-type:i32-from-str',
    (v) => `fn main() {\n    let n: i32 = "${v}";\n    println!("{}", n);\n}`,
  ),
  rustCase(
    'e0308-string-from-int',
    'fix-type:String-from-integer',
    (v) => `fn main() {\n    let s: String = ${v + 5};\n    println!("{}", s);\n}`,
    2,
  ),
  rustCase(
    'e0425-unresolved',
    'define-or-import:config',
    () => 'fn main() {\n    println!("{}", config);\n}',
  ),
  rustCase(
    'e0382-moved',
    'clone-or-borrow:moved-string',
    (v) =>
      `fn take(_s: String) {}\nfn main() {\n    let s = String::from("${v}");\n    take(s);\n    println!("{}", s);\n}`,
  ),
  rustCase(
    'e0599-no-method',
    'fix-method:Vec.length',
    (v) => `fn main() {\n    let v = vec![${v}];\n    println!("{}", v.length());\n}`,
    2,
  ),
  rustCase(
    'e0433-undeclared-crate',
    'add-dependency:serde_json',
    () => 'fn main() {\n    let v = serde_json::json!({});\n    println!("{}", v);\n}',
  ),
  rustCase(
    'e0384-immutable',
    'make-mutable:count',
    (v) => `fn main() {\n    let count = ${v};\n    count += 1;\n    println!("{}", count);\n}`,
    2,
  ),
  {
    ecosystem: 'rust',
    name: 'offline-no-serde',
    fix: 'network-or-vendor:serde',
    tool: 'cargo',
    runs: variants(3, (v) => ({
      command: pick(CARGO, v),
      files: {
        'Cargo.toml': cargoToml(v, `serde = "1.0.${v}"\n`),
        'src/main.rs': 'fn main() {}\n',
      },
    })),
  },
  {
    ecosystem: 'rust',
    name: 'offline-no-tokio',
    fix: 'network-or-vendor:tokio',
    tool: 'cargo',
    runs: variants(2, (v) => ({
      command: pick(CARGO, v),
      files: {
        'Cargo.toml': cargoToml(v, 'tokio = { version = "1", features = ["full"] }\n'),
        'src/main.rs': 'fn main() {}\n',
      },
    })),
  },
  {
    ecosystem: 'rust',
    name: 'no-manifest',
    fix: 'run-in-crate-root',
    tool: 'cargo',
    runs: variants(3, (v) => ({
      command: pick(CARGO, v),
      files: { 'src/main.rs': 'fn main() {}\n' },
    })),
  },
  {
    ecosystem: 'rust',
    name: 'test-failure',
    fix: 'fix-failing-test:adds_two',
    tool: 'cargo',
    runs: variants(3, (v) => ({
      command: 'cargo test --offline',
      files: {
        'Cargo.toml': cargoToml(v),
        'src/lib.rs': `${pad(v)}pub fn add(a: i32, b: i32) -> i32 { a - b }\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds_two() {\n        assert_eq!(super::add(${v}, 2), ${v + 2});\n    }\n}\n`,
      },
    })),
  },
  {
    ecosystem: 'rust',
    name: 'run-unwrap-none',
    fix: 'handle-missing-arg',
    tool: 'cargo',
    runs: variants(3, (v) => ({
      command: 'cargo run --offline -q',
      files: {
        'Cargo.toml': cargoToml(v),
        'src/main.rs': `${pad(v)}fn main() {\n    let arg = std::env::args().nth(${v + 1}).unwrap();\n    println!("{}", arg);\n}\n`,
      },
    })),
  },
  rustcCase(
    'rustc-e0308',
    'fix-type:i32-from-str',
    (v) => `fn main() {\n    let n: i32 = "${v}";\n    println!("{}", n);\n}`,
  ),
  rustcCase(
    'rustc-e0425',
    'define-or-import:total',
    () => 'fn main() {\n    println!("{}", total);\n}',
    3,
  ),
];
