import { type FailureCase, pad, pick, variants } from './failure-case';

const CLASSES = ['App', 'Main', 'Server', 'Tool'];

/** One class that javac rejects; the class name and the failing line move with the setting. */
function javacCase(
  name: string,
  fix: string,
  body: (cls: string, v: number) => string,
  n = 3,
): FailureCase {
  return {
    ecosystem: 'java',
    name,
    fix,
    tool: 'javac',
    runs: variants(n, (v) => {
      const cls = pick(CLASSES, v);
      return {
        command: `javac -d out ${cls}.java`,
        files: { [`${cls}.java`]: `${pad(v)}${body(cls, v)}\n` },
      };
    }),
  };
}

/** A class that compiles and throws when run. */
function javaRunCase(name: string, fix: string, body: (v: number) => string, n = 3): FailureCase {
  return {
    ecosystem: 'java',
    name,
    fix,
    tool: 'java',
    runs: variants(n, (v) => {
      const cls = pick(CLASSES, v);
      return {
        command: `java -cp out ${cls}`,
        setup: `mkdir -p out && javac -d out ${cls}.java`,
        files: { [`${cls}.java`]: `${pad(v)}public class ${cls} {\n${body(v)}\n}\n` },
      };
    }),
  };
}

const POM = (v: number) =>
  `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion><groupId>com.example</groupId><artifactId>${pick(['shop', 'api', 'worker'], v)}</artifactId><version>1.${v}.0</version></project>\n`;

export const JAVA_CASES: FailureCase[] = [
  javacCase(
    'cannot-find-symbol',
    'define-or-import:Config',
    (cls) =>
      `public class ${cls} {\n  public static void main(String[] a) {\n    System.out.println(Config.PORT);\n  }\n}`,
  ),
  javacCase(
    'incompatible-types',
    'fix-type:int-from-String',
    (cls, v) =>
      `public class ${cls} {\n  public static void main(String[] a) {\n    int n = "${v}";\n  }\n}`,
  ),
  javacCase(
    'missing-semicolon',
    'fix-syntax:missing-semicolon',
    (cls, v) =>
      `public class ${cls} {\n  public static void main(String[] a) {\n    int n = ${v}\n  }\n}`,
    2,
  ),
  javacCase(
    'missing-import',
    'import:java.util.List',
    (cls) =>
      `public class ${cls} {\n  public static void main(String[] a) {\n    List<String> xs = null;\n  }\n}`,
    2,
  ),
  javacCase(
    'public-class-file',
    'rename-file-to-class',
    (_cls, v) => `public class Wrong {\n  int v = ${v};\n}`,
    2,
  ),
  javacCase(
    'unreported-exception',
    'handle-checked-exception:IOException',
    (cls) =>
      `import java.io.*;\npublic class ${cls} {\n  static void r() throws IOException {}\n  public static void main(String[] a) {\n    r();\n  }\n}`,
    2,
  ),
  javaRunCase(
    'null-pointer',
    'handle-null:name',
    () =>
      '  public static void main(String[] a) {\n    String name = null;\n    System.out.println(name.length());\n  }',
  ),
  javaRunCase(
    'array-index',
    'check-args-length',
    () => '  public static void main(String[] a) {\n    System.out.println(a[0]);\n  }',
    2,
  ),
  javaRunCase(
    'number-format',
    'validate-number-input',
    (v) =>
      `  public static void main(String[] a) {\n    System.out.println(Integer.parseInt("x${v}"));\n  }`,
    2,
  ),
  javaRunCase(
    'illegal-state-caused-by',
    'set-config:app.port',
    () =>
      '  public static void main(String[] a) {\n    try { Integer.parseInt(System.getProperty("app.port")); }\n    catch (NumberFormatException e) { throw new IllegalStateException("app.port is not set", e); }\n  }',
    2,
  ),
  {
    ecosystem: 'java',
    name: 'main-class-not-found',
    fix: 'fix-classpath-or-class-name',
    tool: 'java',
    runs: variants(3, (v) => ({
      command: `java -cp ${pick(['out', 'build/classes', 'target/classes'], v)} com.example.${pick(CLASSES, v)}`,
      files: {},
    })),
  },
  {
    ecosystem: 'java',
    name: 'mvn-no-pom',
    fix: 'run-in-maven-project-root',
    tool: 'mvn',
    runs: variants(3, (v) => ({
      command: pick(['mvn -o -q compile', 'mvn -o compile', 'mvn -o -B compile'], v),
      files: {},
    })),
  },
  {
    ecosystem: 'java',
    name: 'mvn-offline-plugin',
    fix: 'network-or-prefetch-maven-plugins',
    tool: 'mvn',
    runs: variants(3, (v) => ({
      command: pick(['mvn -o compile', 'mvn -o -B compile', 'mvn -o compile -DskipTests'], v),
      files: { 'pom.xml': POM(v) },
    })),
  },
  {
    ecosystem: 'java',
    name: 'mvn-bad-pom',
    fix: 'fix-pom-xml',
    tool: 'mvn',
    runs: variants(2, (v) => ({
      command: pick(['mvn -o compile', 'mvn -o -B compile'], v),
      files: {
        'pom.xml': `<project><modelVersion>4.0.0</modelVersion><artifactId>x${v}</artifactId>`,
      },
    })),
  },
];
