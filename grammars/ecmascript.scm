; Definitions shared by JavaScript, TypeScript and TSX (captures: see README.md).
; When several patterns capture the same node, the first one wins: tests come first.
; A call's `arguments:` and an assignment's `left:` with `property:` are written as wildcards
; where the field and its children already fix the node type: tree-sitter then skips its
; parse-table analysis of that parent when compiling (see grammars/README.md).

; Test suites and tests written as calls: describe/it/test with .only, .skip, .each(table)...
; The title is the first argument; the position reported is the call's (@anchor).
((call_expression
   function: [(identifier) (member_expression) (call_expression)] @anchor
   arguments: (_ . [(string) (template_string)] @name)) @definition.suite
 (#match? @anchor "^(describe|context|suite|fdescribe|xdescribe|test\\.describe)(\\.(only|skip|todo|each|concurrent|sequential|shuffle|serial|parallel|fixme|skipIf|runIf))*(\\([\\s\\S]*\\))?$")
 (#set! separator " > "))

((call_expression
   function: [(identifier) (member_expression) (call_expression)] @anchor
   arguments: (_ . [(string) (template_string)] @name)) @definition.test
 (#match? @anchor "^(it|test|specify|fit|xit|xtest)(\\.(only|skip|todo|each|concurrent|sequential|failing|fails|fixme|slow|skipIf|runIf))*(\\([\\s\\S]*\\))?$")
 (#set! separator " > "))

; A test whose title is computed by a concatenation (`test(t.input + " throws", ...)`): the
; title is a pattern, its literals as text and the rest placeholders (`${t.input} throws`).
((call_expression
   function: [(identifier) (member_expression) (call_expression)] @anchor
   arguments: (_ . (binary_expression) @name)) @definition.test
 (#match? @anchor "^(it|test|specify|fit|xit|xtest)(\\.(only|skip|todo|each|concurrent|sequential|failing|fails|fixme|slow|skipIf|runIf))*(\\([\\s\\S]*\\))?$")
 (#set! separator " > ")
 (#set! title "computed"))

; Any other computed title (`test(name, fn)`) names no test: a tag inside it warns.
((call_expression
   function: [(identifier) (member_expression) (call_expression)] @_test
   arguments: (_ . [(identifier) (member_expression) (call_expression) (subscript_expression)] . [(arrow_function) (function_expression)])) @test.untitled
 (#match? @_test "^(it|test|specify|fit|xit|xtest)(\\.(only|skip|todo|each|concurrent|sequential|failing|fails|fixme|slow|skipIf|runIf))*(\\([\\s\\S]*\\))?$"))

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (_) @name) @definition.class
(method_definition name: (_) @name) @definition.method

; const f = () => {} / function () {} ; const C = class {}
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
(variable_declarator name: (identifier) @name value: (class)) @definition.class

; Foo.prototype.bar = function () {}: a method of Foo
(assignment_expression
  left: (_
    object: (_
      object: (identifier) @qualifier
      property: (property_identifier) @_prototype)
    property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)]
  (#eq? @_prototype "prototype")) @definition.method

; res.send = function send () {}, app.locals.render = () => {}, exports.f = function () {}:
; named after the object (res.send), so that two objects' `render`s are told apart. One
; pattern for every object: each pattern costs compile time. module.exports = ... names nothing.
((assignment_expression
   left: (_
     object: (_) @qualifier
     property: (property_identifier) @name) @_target
   right: [(arrow_function) (function_expression) (generator_function)]) @definition.function
 (#not-eq? @_target "module.exports"))

; module.exports.createDefu = createDefu, exports.LIMIT = 3, Cart.defaultProps = {}: a
; module-level assignment to a property names its target, whatever it assigns (a function
; assigned is named by the pattern above, which comes first).
((program
   (expression_statement
     (assignment_expression
       left: (_
         object: (_) @qualifier
         property: (property_identifier) @name) @_target) @definition.variable))
 (#not-eq? @_target "module.exports"))

; { key: () => {} } in object literals
(pair
  key: (property_identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function

; Other module-level variables: const LIMIT = 3, export let state = {}.
(program
  [(lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable)
   (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)
   (export_statement
     declaration: [(lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable)
                   (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)])])
