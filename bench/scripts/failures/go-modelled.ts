import { pick } from './failure-case';

/**
 * Go is not installed on the machines the corpus was made on, so its
 * outputs are modelled: written here in the exact formats the go command,
 * the compiler, `go test` and the runtime print, as public build logs show
 * them (the `format` address of each case), with this corpus's own module
 * paths, files, lines and versions. They are labelled `modelled`, never
 * counted as captured.
 */
export interface ModelledCase {
  ecosystem: string;
  name: string;
  fix: string;
  tool: string;
  /** The address of a public log or document that shows the format. */
  format: string;
  runs: { command: string; output: string }[];
  /** Kept out of any tuning of the signature rules. */
  heldOut?: boolean;
}

const MODULES = ['example.com/shop', 'github.com/acme/api', 'git.internal/tools/worker'];
const ROOTS = ['/home/dev/src/shop', '/Users/sam/work/api', '/builds/ci/worker'];
const FILES = ['main.go', 'cmd/server/main.go', 'internal/app/app.go'];

function modelled(
  name: string,
  fix: string,
  format: string,
  n: number,
  make: (v: number) => { command: string; output: string },
): ModelledCase {
  return {
    ecosystem: 'go',
    name,
    fix,
    tool: 'go',
    format,
    runs: Array.from({ length: n }, (_, v) => make(v)),
  };
}

const at = (v: number, line: number, col: number) =>
  `${pick(FILES, v).startsWith('main') ? './' : ''}${pick(FILES, v)}:${line + v * 9}:${col}`;
const header = (v: number) =>
  `# ${pick(MODULES, v)}${pick(FILES, v).includes('/') ? `/${pick(FILES, v).split('/').slice(0, -1).join('/')}` : ''}`;

export const GO_CASES: ModelledCase[] = [
  modelled(
    'missing-go-sum',
    'go-get-or-tidy:github.com/google/uuid',
    'https://github.com/golang/go/issues/44873',
    3,
    (v) => ({
      command: pick(['go build ./...', 'go build -o bin/app .', 'go build -v ./...'], v),
      output: `${at(v, 6, 2)}: missing go.sum entry for module providing package github.com/google/uuid (imported by ${pick(MODULES, v)}); to add:\n\tgo get ${pick(MODULES, v)}\n`,
    }),
  ),
  modelled(
    'missing-go-sum-yaml',
    'go-get-or-tidy:gopkg.in/yaml.v3',
    'https://github.com/golang/go/issues/44873',
    2,
    (v) => ({
      command: pick(['go build ./...', 'go build -o bin/app .'], v),
      output: `${at(v, 8, 2)}: missing go.sum entry for module providing package gopkg.in/yaml.v3 (imported by ${pick(MODULES, v)}); to add:\n\tgo get ${pick(MODULES, v)}\n`,
    }),
  ),
  modelled(
    'imported-not-used-os',
    'remove-unused-import:os',
    'https://github.com/goccmack/gocc/issues/87',
    3,
    (v) => ({
      command: pick(['go build ./...', 'go build .', 'go build -race ./...'], v),
      output: `${header(v)}\n${at(v, 5, 2)}: "os" imported and not used\n`,
    }),
  ),
  modelled(
    'imported-not-used-strings',
    'remove-unused-import:strings',
    'https://github.com/goccmack/gocc/issues/87',
    2,
    (v) => ({
      command: pick(['go build ./...', 'go build .'], v),
      output: `${header(v)}\n${at(v, 6, 2)}: "strings" imported and not used\n`,
    }),
  ),
  modelled(
    'declared-not-used',
    'remove-unused-variable:count',
    'https://github.com/golang/go/issues/24003',
    3,
    (v) => ({
      command: pick(['go build ./...', 'go build .', 'go build -o out/app .'], v),
      output: `${header(v)}\n${at(v, 14, 2)}: declared and not used: count\n`,
    }),
  ),
  modelled(
    'undefined-config',
    'define-or-import:Config',
    'https://github.com/goccmack/gocc/issues/87',
    3,
    (v) => ({
      command: pick(['go build ./...', 'go build .', 'go build -v ./...'], v),
      output: `${header(v)}\n${at(v, 21, 9)}: undefined: Config\n`,
    }),
  ),
  modelled(
    'undefined-logger',
    'define-or-import:logger',
    'https://github.com/goccmack/gocc/issues/87',
    2,
    (v) => ({
      command: pick(['go build ./...', 'go build .'], v),
      output: `${header(v)}\n${at(v, 17, 3)}: undefined: logger\n`,
    }),
  ),
  modelled(
    'go-version-too-old',
    'upgrade-go-toolchain',
    'https://go.dev/doc/toolchain',
    3,
    (v) => ({
      command: pick(['go build ./...', 'go build .', 'go build -o bin/app .'], v),
      output: `go: go.mod requires go >= 1.${22 + v}.${v} (running go 1.21.${5 + v}; GOTOOLCHAIN=local)\n`,
    }),
  ),
  modelled('no-go-mod', 'run-in-module-root', 'https://go.dev/ref/mod', 2, (v) => ({
    command: pick(['go build ./...', 'go build .'], v),
    output:
      "go: go.mod file not found in current directory or any parent directory; see 'go help modules'\n",
  })),
  modelled('test-add-fails', 'fix-failing-test:TestAdd', 'https://pkg.go.dev/testing', 3, (v) => ({
    command: pick(['go test ./...', 'go test -count=1 ./...', 'go test -race ./...'], v),
    output: `--- FAIL: TestAdd (0.00s)\n    math_test.go:${12 + v * 4}: add(2, ${v + 1}) = ${v + 2}, want ${v + 3}\nFAIL\nFAIL\t${pick(MODULES, v)}/calc\t0.0${v + 2}s\nFAIL\n`,
  })),
  modelled('test-sub-fails', 'fix-failing-test:TestSub', 'https://pkg.go.dev/testing', 2, (v) => ({
    command: pick(['go test ./...', 'go test -count=1 ./...'], v),
    output: `--- FAIL: TestSub (0.00s)\n    math_test.go:${20 + v * 4}: sub(5, ${v}) = ${5 - v}, want 0\nFAIL\nFAIL\t${pick(MODULES, v)}/calc\t0.0${v + 1}s\nFAIL\n`,
  })),
  modelled(
    'nil-pointer',
    'handle-nil:config',
    'https://go.dev/ref/spec#Run_time_panics',
    3,
    (v) => ({
      command: pick(['go run .', 'go run ./cmd/server', 'go run main.go'], v),
      output: `panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x${(8 + v * 16).toString(16)} pc=0x47${v}b2${v}]\n\ngoroutine 1 [running]:\nmain.main()\n\t${pick(ROOTS, v)}/${pick(FILES, v)}:${11 + v * 9} +0x1${v}\nexit status 2\n`,
    }),
  ),
  modelled(
    'cannot-use-string-as-int',
    'fix-type:int-from-string',
    'https://github.com/golang/go/issues/24003',
    2,
    (v) => ({
      command: pick(['go build ./...', 'go build .'], v),
      output: `${header(v)}\n${at(v, 9, 14)}: cannot use "${v}" (untyped string constant) as int value in assignment\n`,
    }),
  ),
];
