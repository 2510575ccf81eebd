import { type FailureCase, pad, pick, port, variants } from './failure-case';

const SCRIPT = ['app.py', 'main.py', 'manage.py', 'src/worker.py', 'scripts/run.py'];

/** A script that fails at a line that moves with the setting. */
function pyCase(name: string, fix: string, body: (v: number) => string, n = 3): FailureCase {
  return {
    ecosystem: 'python',
    name,
    fix,
    tool: 'python3',
    runs: variants(n, (v) => ({
      command: `python3 ${pick(SCRIPT, v)}`,
      files: { [pick(SCRIPT, v)]: `${pad(v, '#')}${body(v)}\n` },
    })),
  };
}

export const PYTHON_CASES: FailureCase[] = [
  pyCase('missing-django', 'install-missing-module:django', () => 'import django'),
  pyCase('missing-psycopg2', 'install-missing-module:psycopg2', () => 'import psycopg2', 3),
  pyCase(
    'missing-sqlalchemy',
    'install-missing-module:sqlalchemy',
    () => 'from sqlalchemy import create_engine',
    2,
  ),
  pyCase('missing-submodule', 'fix-import:os.walkdir', () => 'from os import walkdir', 2),
  pyCase(
    'keyerror-env-database-url',
    'set-env:DATABASE_URL',
    () => "import os\nurl = os.environ['DATABASE_URL']",
  ),
  pyCase(
    'keyerror-env-secret-key',
    'set-env:SECRET_KEY',
    () => "import os\nkey = os.environ['SECRET_KEY']",
    2,
  ),
  pyCase(
    'file-not-found-config',
    'create-missing-file:config.json',
    () => "import json\nwith open('config.json') as f:\n    json.load(f)",
  ),
  pyCase(
    'file-not-found-absolute',
    'create-missing-file:settings.toml',
    () => "import os\nopen(os.path.join(os.getcwd(), 'conf', 'settings.toml'))",
    2,
  ),
  pyCase(
    'file-not-found-absolute-secrets',
    'create-missing-file:secrets.toml',
    () => "import os\nopen(os.path.join(os.getcwd(), 'conf', 'secrets.toml'))",
    2,
  ),
  pyCase(
    'zero-division',
    'fix-code:guard-empty-average',
    (v) => `items = []\nprint(${v} + sum(items) / len(items))`,
    2,
  ),
  pyCase(
    'type-error-str-int',
    'fix-code:cast-count-to-str',
    (v) => `count = ${v + 2}\nprint('total: ' + count)`,
  ),
  pyCase(
    'none-attribute',
    'handle-none:split',
    () =>
      "import re\nm = re.match(r'x', 'abc')\nprint(m.group(0).split())\nname = None\nname.split(',')",
  ),
  pyCase('syntax-error', 'fix-syntax:missing-colon', (v) => `def f(x)\n    return x + ${v}`, 2),
  pyCase('indentation-error', 'fix-indentation', (v) => `def f():\nreturn ${v}`, 2),
  pyCase('name-error', 'define-or-import:settings', () => 'print(settings.DEBUG)'),
  pyCase(
    'json-decode',
    'fix-json-config',
    (v) => `import json\njson.loads('{"port": ${port(v)},}')`,
    3,
  ),
  pyCase(
    'address-in-use',
    'free-port-or-change-port',
    (v) =>
      `import socket\na = socket.socket()\na.bind(('127.0.0.1', ${port(v)}))\na.listen()\nb = socket.socket()\nb.bind(('127.0.0.1', ${port(v)}))`,
  ),
  pyCase(
    'connection-refused',
    'start-local-api-server',
    (v) => `import socket\nsocket.create_connection(('127.0.0.1', ${port(v) + 1}))`,
  ),
  {
    ecosystem: 'python',
    name: 'script-missing',
    fix: 'fix-script-path',
    tool: 'python3',
    runs: variants(3, (v) => ({ command: `python3 ${pick(SCRIPT, v)}`, files: {} })),
  },
];

export const PIP_CASES: FailureCase[] = [
  {
    ecosystem: 'pip',
    name: 'no-distribution-flask-login',
    fix: 'pip-install-unavailable:flask-login',
    tool: 'pip',
    runs: variants(3, (v) => ({
      command: pick(
        ['pip install flask-login', 'pip3 install flask-login', 'pip install --user flask-login'],
        v,
      ),
      files: {},
    })),
  },
  {
    ecosystem: 'pip',
    name: 'no-distribution-pinned-django',
    fix: 'pip-install-unavailable:django',
    tool: 'pip',
    runs: variants(2, (v) => ({ command: `pip install 'django==${4 + v}.2'`, files: {} })),
  },
  {
    ecosystem: 'pip',
    name: 'requirements-file-missing',
    fix: 'create-requirements-file',
    tool: 'pip',
    runs: variants(3, (v) => ({
      command: pick(
        [
          'pip install -r requirements.txt',
          'pip3 install -r requirements.txt',
          'pip install --user -r requirements.txt',
        ],
        v,
      ),
      files: {},
    })),
  },
  {
    ecosystem: 'pip',
    name: 'invalid-requirement',
    fix: 'fix-requirement-spec',
    tool: 'pip',
    runs: variants(3, (v) => ({ command: `pip install 'requests===${v}.'`, files: {} })),
  },
  {
    ecosystem: 'pip',
    name: 'not-installable-dir',
    fix: 'add-pyproject-or-setup',
    tool: 'pip',
    runs: variants(3, (v) => ({
      command: `pip install -e ./${pick(['pkg', 'lib', 'core'], v)}`,
      files: { [`${pick(['pkg', 'lib', 'core'], v)}/README.md`]: '# x\n' },
    })),
  },
];

const TEST = ['tests/test_math.py', 'test_math.py', 'tests/unit/test_math.py'];
const pytest = (v: number) =>
  pick(
    [
      'pytest -q -p no:cacheprovider',
      'pytest -p no:cacheprovider',
      'pytest -q -x -p no:cacheprovider',
    ],
    v,
  );

function pytestCase(
  name: string,
  fix: string,
  body: (v: number) => string,
  n = 3,
  extra: Record<string, string> = {},
): FailureCase {
  return {
    ecosystem: 'pytest',
    name,
    fix,
    tool: 'pytest',
    runs: variants(n, (v) => ({
      command: pytest(v),
      files: { [pick(TEST, v)]: `${pad(v, '#')}${body(v)}\n`, ...extra },
    })),
  };
}

export const PYTEST_CASES: FailureCase[] = [
  pytestCase(
    'assert-add',
    'fix-failing-test:test_add',
    (v) => `def test_add():\n    assert 1 + ${v} == ${v + 2}`,
  ),
  pytestCase(
    'assert-sub',
    'fix-failing-test:test_sub',
    (v) => `def test_sub():\n    assert 5 - ${v} == 0`,
    2,
  ),
  pytestCase('missing-fixture', 'add-fixture:db', () => 'def test_query(db):\n    assert db', 3),
  pytestCase(
    'collection-import',
    'install-missing-module:django',
    () => 'import django\n\ndef test_x():\n    assert True',
    3,
  ),
  pytestCase(
    'raises-keyerror',
    'fix-failing-test:test_lookup',
    (v) => `def test_lookup():\n    d = {'a': ${v}}\n    assert d['b']`,
    2,
  ),
];

export const ALL_PYTHON_CASES: FailureCase[] = [...PYTHON_CASES, ...PIP_CASES, ...PYTEST_CASES];
