// The specification format as data: every kind's fields, their types and what they mean.
// The loader validates files against these tables and schema.ts turns the same tables into
// the JSON Schemas under schema/, so the two cannot drift apart.

export type FieldType =
  | { type: "kind"; value: string }
  | { type: "string" }
  /** `of` names one item in messages ("ID"). */
  | { type: "strings"; of: string; minItems?: number }
  | { type: "properties" }
  | { type: "boolean" }
  | { type: "date" }
  | { type: "object"; of: ObjectSpec }
  | { type: "objects"; of: ObjectSpec };

export type FieldSpec = FieldType & {
  description: string;
  required?: boolean;
};

export interface ObjectSpec {
  /** How messages name one of these, e.g. "requirement". */
  name: string;
  description: string;
  fields: Record<string, FieldSpec>;
}

export const KINDS = ["requirements", "tests", "comments", "project"] as const;
export type Kind = (typeof KINDS)[number];

/** dd/mm/yyyy, one- or two-digit day and month, as Python's strptime('%d/%m/%Y') reads it. */
export const DATE_PATTERN = "^([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})$";

/** The fields every item has, as speky's SpecItem base class: id, short, long. */
function itemFields(item: string, long: string): Record<string, FieldSpec> {
  return {
    id: {
      type: "string",
      required: true,
      description: "Unique across all loaded requirements and tests, e.g. REQ-001. By convention [A-Z][A-Z0-9_-]+.",
    },
    short: { type: "string", description: `The ${item} summarized in a few words, on one line.` },
    long: { type: "string", required: true, description: long },
  };
}

export const REQUIREMENT: ObjectSpec = {
  name: "requirement",
  description: "A requirement.",
  fields: {
    ...itemFields("requirement", "The full statement of the requirement."),
    tags: {
      type: "strings",
      of: "tag",
      description: "Tags indexing the requirement; a tag may be namespaced as group:subtag and is matched whole.",
    },
    client_statement: { type: "string", description: "The requirement in the customer's own words, quoted." },
    properties: {
      type: "properties",
      description: "Free key-value properties (author, since, priority...); values are strings or integers, kept as written.",
    },
    ref: { type: "strings", of: "ID", description: "IDs of the requirements this one refers to." },
  },
};

export const STEP: ObjectSpec = {
  name: "step",
  description: "One step of a test procedure.",
  fields: {
    action: { type: "string", required: true, description: "What the tester does." },
    run: { type: "string", description: "A shell command performing the action." },
    expected: { type: "string", description: "The expected behaviour or output." },
    sample: { type: "string", description: "A sample of input or output, shown as a code block." },
    sample_lang: { type: "string", description: "The language of the sample, for syntax highlighting." },
  },
};

export const TEST: ObjectSpec = {
  name: "test",
  description: "A test procedure validating requirements.",
  fields: {
    ...itemFields("test", "What the test checks."),
    ref: {
      type: "strings",
      of: "ID",
      minItems: 1,
      required: true,
      description: "IDs of the requirements this test validates, at least partially (at least one).",
    },
    initial: { type: "string", description: "The initial state before the first step." },
    prereq: { type: "strings", of: "ID", description: "IDs of the tests to run before this one." },
    steps: { type: "objects", of: STEP, required: true, description: "The procedure, in order." },
  },
};

/** A comment's fields are each optional in a file (`default` may supply them); see comments.ts. */
export const COMMENT: ObjectSpec = {
  name: "comment",
  description: "A comment on a requirement or a test.",
  fields: {
    about: { type: "string", description: "ID of the requirement or test commented on." },
    from: { type: "string", description: "Who wrote the comment." },
    date: { type: "date", description: "When the comment was written, as dd/mm/yyyy." },
    text: { type: "string", description: "The comment itself." },
    external: {
      type: "boolean",
      description: "Whether the comment comes from outside the team (e.g. the client). Default: false.",
    },
  },
};

/** Fields each comment must have once its file's `default` is merged in. */
export const COMMENT_REQUIRED = ["about", "from", "date", "text"] as const;

export const SOURCE_LINKS: ObjectSpec = {
  name: "source_links",
  description: "Where code references link to: {url}/blob/{branch}/{path from the git root}#L{line}.",
  fields: {
    url: {
      type: "string",
      required: true,
      description: "Base URL of the repository, e.g. https://github.com/org/repo; 'auto' reads git's origin remote.",
    },
    branch: {
      type: "string",
      description: "Branch (or any ref) to link to; 'auto' (the default) reads the current git branch.",
    },
  },
};

function kindField(kind: Kind): FieldSpec {
  return { type: "kind", value: kind, required: true, description: "What this file holds." };
}

const CATEGORY: FieldSpec = {
  type: "string",
  required: true,
  description: "The category of every item in this file, e.g. functional or non-functional.",
};

export const FILE_SPECS: Record<Kind, ObjectSpec> = {
  requirements: {
    name: "requirements file",
    description: "Requirements of one category.",
    fields: {
      kind: kindField("requirements"),
      category: CATEGORY,
      requirements: { type: "objects", of: REQUIREMENT, required: true, description: "The requirements." },
    },
  },
  tests: {
    name: "tests file",
    description: "Tests of one category.",
    fields: {
      kind: kindField("tests"),
      category: CATEGORY,
      tests: { type: "objects", of: TEST, required: true, description: "The tests." },
    },
  },
  comments: {
    name: "comments file",
    description: "Comments on requirements and tests.",
    fields: {
      kind: kindField("comments"),
      default: {
        type: "object",
        of: COMMENT,
        description: "Fields given to every comment of this file that does not set them itself.",
      },
      comments: { type: "objects", of: COMMENT, required: true, description: "The comments, in order." },
    },
  },
  project: {
    name: "manifest",
    description: "A project manifest: where a project's specification files, comments and code are.",
    fields: {
      kind: kindField("project"),
      name: {
        type: "string",
        required: true,
        description: "The project's name: the namespace of its code tags (speky:<name>#<ID>), matched case-insensitively.",
      },
      files: {
        type: "strings",
        of: "glob",
        required: true,
        description: "Globs of specification files, relative to the root directory; a matched manifest is a sub-project.",
      },
      root_directory: {
        type: "string",
        description:
          "Directory that globs and displayed paths are relative to, relative to this file's folder. " + "Default: this file's folder.",
      },
      comments_csvs: {
        type: "strings",
        of: "glob",
        description: "Globs of CSV comment files, relative to the root directory.",
      },
      code_sources: {
        type: "strings",
        of: "glob",
        description: "Globs of source files to scan for speky:<name>#<ID> tags, relative to the root directory.",
      },
      test_results: {
        type: "strings",
        of: "glob",
        description:
          "Globs of JUnit XML test results, relative to the root directory: a requirement is verified when its tests passed " +
          "(speky-ts; speky ignores this field).",
      },
      coverage_categories: {
        type: "strings",
        of: "category",
        description: "The requirement categories whose test-plan coverage is reported.",
      },
      source_links: { type: "object", of: SOURCE_LINKS, description: SOURCE_LINKS.description },
    },
  },
};
