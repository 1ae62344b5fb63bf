; Go definitions for the speky scanner (captures: see README.md).

(function_declaration name: (identifier) @name) @definition.function

; go test runs an Example function only when its body ends with an output comment
; ("// Output:" or "// Unordered output:", in any case, as go/doc reads the body's last
; comment group); without one it is compiled, never run. Such an example is a test by its
; `func` keyword, captured as a test attribute.
(function_declaration
  "func" @test.attribute
  name: (identifier) @_name
  body: (block (comment) @_output)
  (#match? @_name "^Example($|[^a-z])")
  (#match? @_output "^(//|/\\*)[ \t]*([Uu][Nn][Oo][Rr][Dd][Ee][Rr][Ee][Dd] )?[Oo][Uu][Tt][Pp][Uu][Tt]:")
  (#followed-only-by? @_output comment))

; Methods are named after their receiver's type, pointer dropped: Type.Method
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [(type_identifier) @qualifier
             (pointer_type (type_identifier) @qualifier)
             (generic_type type: (type_identifier) @qualifier)
             (pointer_type (generic_type type: (type_identifier) @qualifier))]))
  name: (field_identifier) @name) @definition.method

(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type

; Package-level constants and variables. A parenthesized group (`const (`) is a definition of
; its own, spanning the group and reported at its keyword: named after the type of its first
; constant whose type is declared in this package (the `Kind` of `Discounted Kind = iota`, the
; group go/doc lists under its type), else after its first constant. A declaration of one
; spec (`const X = 1`) is named after it; each constant of a group, too, spanning its own
; lines. The decision and its reason: README.md, "Go constant groups".
((source_file (const_declaration "const" @anchor "(" (const_spec type: (type_identifier) @name)) @definition.constant)
 (#not-match? @name "^(any|bool|byte|comparable|complex64|complex128|error|float32|float64|int|int8|int16|int32|int64|rune|string|uint|uint8|uint16|uint32|uint64|uintptr)$"))
((source_file (var_declaration "var" @anchor "(" (var_spec type: (type_identifier) @name)) @definition.variable)
 (#not-match? @name "^(any|bool|byte|comparable|complex64|complex128|error|float32|float64|int|int8|int16|int32|int64|rune|string|uint|uint8|uint16|uint32|uint64|uintptr)$"))
(source_file (const_declaration "const" @anchor "(" (const_spec name: (identifier) @name)) @definition.constant)
(source_file (var_declaration "var" @anchor "(" (var_spec name: (identifier) @name)) @definition.variable)
(source_file (const_declaration (const_spec name: (identifier) @name)) @definition.constant)
(source_file (var_declaration (var_spec name: (identifier) @name)) @definition.variable)
(source_file (const_declaration (const_spec name: (identifier) @name) @definition.constant))
(source_file (var_declaration (var_spec name: (identifier) @name) @definition.variable))

; Interface methods
(method_spec name: (field_identifier) @name) @definition.method
