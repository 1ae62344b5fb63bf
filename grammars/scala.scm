; Scala definitions for the speky scanner (captures: see README.md). The grammar (npm
; tree-sitter-scala 0.24) parses Scala 2 and 3 (indentation syntax, enum, given, extension).
; When several patterns capture the same node, the first one wins.

; JUnit (and JUnit in Scala): @Test, simple or qualified.
((annotation name: [(type_identifier) @_ann (stable_type_identifier (type_identifier) @_ann .)]) @test.attribute
 (#match? @_ann "^(Test|ParameterizedTest|RepeatedTest|TestFactory)$"))

; ScalaTest FunSuite, MUnit, utest: test("title") { ... }; FunSpec: describe/it. The grammar
; reads `f("x") { ... }` as a call of the call `f("x")` with the block as its argument.
((call_expression
   function: (call_expression function: (identifier) @anchor arguments: (arguments . (string) @name))
   arguments: (block)) @definition.suite
 (#match? @anchor "^(describe|context)$")
 (#set! separator " > "))
((call_expression
   function: (call_expression function: (identifier) @anchor arguments: (arguments . (string) @name))
   arguments: (block)) @definition.test
 (#match? @anchor "^(test|it|they|ignore|property)$")
 (#set! separator " > "))

; FlatSpec: "A basket" should "be empty" in { ... } (also must, can; it/they as subject).
((infix_expression
   left: (infix_expression left: [(string) (identifier)] @qualifier operator: (identifier) @_verb right: (string) @name)
   operator: (identifier) @_in
   right: (block)) @definition.test @anchor
 (#eq? @_verb "should") (#match? @_in "^(in|ignore)$")
 (#set! separator " > ") (#set! qualifier_separator " should "))
((infix_expression
   left: (infix_expression left: [(string) (identifier)] @qualifier operator: (identifier) @_verb right: (string) @name)
   operator: (identifier) @_in
   right: (block)) @definition.test @anchor
 (#eq? @_verb "must") (#match? @_in "^(in|ignore)$")
 (#set! separator " > ") (#set! qualifier_separator " must "))
((infix_expression
   left: (infix_expression left: [(string) (identifier)] @qualifier operator: (identifier) @_verb right: (string) @name)
   operator: (identifier) @_in
   right: (block)) @definition.test @anchor
 (#eq? @_verb "can") (#match? @_in "^(in|ignore)$")
 (#set! separator " > ") (#set! qualifier_separator " can "))

; WordSpec, FreeSpec, specs2: "subject" when/should/- { ... } nests, "example" in { ... } tests.
((infix_expression left: (string) @name operator: (_) @_op right: (block)) @definition.suite @anchor
 (#match? @_op "^(when|should|must|can|which|that|-)$")
 (#set! separator " > "))
((infix_expression left: (string) @name operator: (_) @_op right: (block)) @definition.test @anchor
 (#match? @_op "^(in|ignore|>>)$")
 (#set! separator " > "))

; Members of classes, objects and traits are methods and fields: Type.member
(template_body [(function_definition name: (identifier) @name) (function_declaration name: (identifier) @name)] @definition.method)
(template_body [(val_definition pattern: (identifier) @name) (var_definition pattern: (identifier) @name)
                (val_declaration name: (identifier) @name) (var_declaration name: (identifier) @name)] @definition.field)
(function_definition name: (identifier) @name) @definition.function
(compilation_unit [(val_definition pattern: (identifier) @name) (var_definition pattern: (identifier) @name)] @definition.variable)

(class_definition name: (identifier) @name) @definition.class
(object_definition name: (identifier) @name) @definition.object
(package_object name: (identifier) @name) @definition.object
(trait_definition name: (identifier) @name) @definition.trait
(enum_definition name: (identifier) @name) @definition.enum
(given_definition name: (identifier) @name) @definition.variable
(type_definition name: (type_identifier) @name) @definition.type

