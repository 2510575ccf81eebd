import type { CorpusCase } from './corpus-types';

export const pythonModule: CorpusCase = {
  name: 'python ModuleNotFoundError',
  family: 'python',
  command: 'python3 manage.py migrate',
  text: (v) => `Traceback (most recent call last):
  File "${v.root}/manage.py", line ${v.line}, in <module>
    main()
  File "${v.root}/manage.py", line ${v.line2}, in main
    from django.core.management import execute_from_command_line
ModuleNotFoundError: No module named 'django'`,
};
export const pythonOtherModule: CorpusCase = {
  ...pythonModule,
  name: 'python ModuleNotFoundError other module',
  text: (v) => pythonModule.text(v).replace("'django'", "'requests'"),
};
export const pythonKeyError: CorpusCase = {
  name: 'python KeyError',
  family: 'python',
  command: 'python3 app.py',
  text: (v) => `Traceback (most recent call last):
  File "${v.root}/app.py", line ${v.line}, in <module>
    token = os.environ["API_TOKEN"]
  File "<frozen os>", line ${v.line2}, in __getitem__
KeyError: 'API_TOKEN'`,
};
export const pythonFileNotFound: CorpusCase = {
  name: 'python FileNotFoundError',
  family: 'python',
  command: 'python3 load.py',
  text: (v) => `Traceback (most recent call last):
  File "${v.root}/load.py", line ${v.line}, in <module>
    with open(path) as f:
FileNotFoundError: [Errno 2] No such file or directory: '/tmp/${v.tmp}/data.csv'`,
};
export const pipNoMatch: CorpusCase = {
  name: 'pip no matching distribution',
  family: 'pip',
  command: 'pip install torch==1.2.3',
  text: () => `ERROR: Could not find a version that satisfies the requirement torch==1.2.3 (from versions: 2.2.0, 2.2.1, 2.3.0)
ERROR: No matching distribution found for torch==1.2.3`,
};
export const pipExternallyManaged: CorpusCase = {
  name: 'pip externally managed',
  family: 'pip',
  command: 'pip install requests',
  text: () => `error: externally-managed-environment

× This environment is externally managed
╰─> To install Python packages system-wide, try apt install
    python3-xyz, where xyz is the package you are trying to
    install.`,
};
export const pytestFailure: CorpusCase = {
  name: 'pytest failed test',
  family: 'pytest',
  command: 'python -m pytest -q',
  text: (v) => `..F.                                                                     [100%]
=================================== FAILURES ===================================
_______________________________ test_parse_date ________________________________

    def test_parse_date():
>       assert parse_date("2024-02-30") is None
E       ValueError: day is out of range for month

tests/test_dates.py:${v.line}: ValueError
=========================== short test summary info ============================
FAILED tests/test_dates.py::test_parse_date - ValueError: day is out of range for month
1 failed, 3 passed in ${(v.ms / 1000).toFixed(2)}s
========================= 1 failed, 3 passed in ${(v.ms / 1000).toFixed(2)}s =========================`,
};
export const pytestOtherTest: CorpusCase = {
  ...pytestFailure,
  name: 'pytest other test',
  text: (v) => pytestFailure.text(v).replaceAll('test_parse_date', 'test_format_date'),
};
export const goUndefined: CorpusCase = {
  name: 'go undefined',
  family: 'go',
  command: 'go build ./...',
  text: (v) => `# example.com/shop/cart
./total.go:${v.line}:${v.col}: undefined: applyDiscount
./total.go:${v.line2}:${v.col}: undefined: applyDiscount`,
};
export const goMissingSum: CorpusCase = {
  name: 'go missing go.sum entry',
  family: 'go',
  command: 'go build ./...',
  text: (v) =>
    `cart/total.go:${v.line}:2: missing go.sum entry for module providing package github.com/google/uuid (imported by example.com/shop/cart); to add:\n\tgo get example.com/shop/cart`,
};
export const goTestFailure: CorpusCase = {
  name: 'go test failure',
  family: 'go-test',
  command: 'go test ./...',
  text: (v) => `--- FAIL: TestTotal (0.00s)
    --- FAIL: TestTotal/discount (0.00s)
        total_test.go:${v.line}: got 90, want 81
FAIL
FAIL	example.com/shop/cart	0.${v.ms}s
FAIL`,
};
export const goPanic: CorpusCase = {
  name: 'go test nil pointer panic',
  family: 'go-test',
  command: 'go test ./...',
  text: (v) => `--- FAIL: TestLoad (0.00s)
panic: runtime error: invalid memory address or nil pointer dereference [recovered]
	panic: runtime error: invalid memory address or nil pointer dereference
[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=${v.addr}]

goroutine ${v.pid} [running]:
testing.tRunner.func1.2({0x5f3c40, 0x8a1d30})
	/usr/local/go/src/testing/testing.go:${v.line2} +0x1e5
FAIL	example.com/shop/store	0.${v.ms}s`,
};
export const rustMismatched: CorpusCase = {
  name: 'rustc E0308',
  family: 'rust',
  command: 'cargo build',
  text: (v) => `   Compiling shop v0.1.0 (${v.root})
error[E0308]: mismatched types
  --> src/main.rs:${v.line}:${v.col}
   |
${v.line} |     let total: u32 = price * 1.2;
   |                ---   ^^^^^^^^^^^ expected \`u32\`, found floating-point number
   |                |
   |                expected due to this

For more information about this error, try \`rustc --explain E0308\`.
error: could not compile \`shop\` (bin "shop") due to 1 previous error`,
};
export const rustBorrow: CorpusCase = {
  ...rustMismatched,
  name: 'rustc E0502',
  text: (v) =>
    rustMismatched
      .text(v)
      .replace(
        'error[E0308]: mismatched types',
        'error[E0502]: cannot borrow `items` as mutable because it is also borrowed as immutable',
      ),
};
export const cargoTestFailure: CorpusCase = {
  name: 'cargo test failure',
  family: 'cargo-test',
  command: 'cargo test',
  text: (v) => `running 3 tests
test tests::adds ... ok
test tests::discount ... FAILED

failures:

---- tests::discount stdout ----

thread 'tests::discount' panicked at src/lib.rs:${v.line}:${v.col}:
assertion \`left == right\` failed
  left: 90
 right: 81
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace

failures:
    tests::discount

test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.${v.ms}s`,
};
export const javaNpe: CorpusCase = {
  name: 'java NullPointerException',
  family: 'java',
  command: 'java -jar target/shop.jar',
  text: (
    v,
  ) => `Exception in thread "main" java.lang.NullPointerException: Cannot invoke "String.length()" because "name" is null
	at com.acme.shop.Cart.add(Cart.java:${v.line})
	at com.acme.shop.Main.main(Main.java:${v.line2})`,
};
export const javaCausedBy: CorpusCase = {
  name: 'java root cause',
  family: 'java',
  command: 'java -jar target/shop.jar',
  text: (v) => `Exception in thread "main" java.lang.RuntimeException: boot failed
	at com.acme.shop.Main.main(Main.java:${v.line})
Caused by: java.sql.SQLException: Access denied for user 'shop'@'localhost' (using password: YES)
	at com.mysql.cj.jdbc.exceptions.SQLError.createSQLException(SQLError.java:${v.line2})
	... ${v.col} more`,
};
export const mavenCompile: CorpusCase = {
  name: 'maven compile error',
  family: 'maven',
  command: 'mvn -q package',
  text: (v) => `[ERROR] COMPILATION ERROR :
[ERROR] ${v.root}/src/main/java/com/acme/shop/Cart.java:[${v.line},${v.col}] cannot find symbol
  symbol:   class BigDecimal
[INFO] BUILD FAILURE
[INFO] Total time:  ${(v.ms / 100).toFixed(3)} s
[INFO] Finished at: ${v.time}
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project shop: Compilation failure -> [Help 1]`,
};
export const gradleTask: CorpusCase = {
  name: 'gradle task failure',
  family: 'gradle',
  command: './gradlew build',
  text: (v) => `> Task :app:compileJava FAILED
${v.root}/app/src/main/java/shop/App.java:${v.line}: error: ';' expected

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':app:compileJava'.
> Compilation failed; see the compiler error output for details.

* Try:
> Run with --stacktrace option to get the stack trace.

BUILD FAILED in ${Math.round(v.ms / 100)}s`,
};
