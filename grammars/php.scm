; PHP definitions for the speky scanner (captures: see README.md).
; Names follow PHP: Shop\Core\Basket::add (the row's separator is "\", members use "::").
; When several patterns capture the same node, the first one in this file wins.

; PHPUnit: #[Test] (simple or qualified) and a /** @test */ docblock mark a test method;
; methods test* of a TestCase subclass are tests by the naming rule.
((attribute [(name) @_attr (qualified_name (name) @_attr .)]) @test.attribute
 (#eq? @_attr "Test"))
((comment) @test.attribute
 (#match? @test.attribute "^/\\*\\*([\\s\\S]*[\\s*])?@test([\\s*]|$)"))

; Pest: describe('title', fn) nests, test('title', fn) / it(...) are tests: suite > title.
((function_call_expression
   function: (name) @anchor
   arguments: (arguments . (argument [(string) (encapsed_string)] @name))) @definition.suite
 (#eq? @anchor "describe")
 (#set! separator " > "))
((function_call_expression
   function: (name) @anchor
   arguments: (arguments . (argument [(string) (encapsed_string)] @name))) @definition.test
 (#match? @anchor "^(test|it)$")
 (#set! separator " > "))

; namespace Shop\Core; encloses what follows it; namespace Shop\Core { ... } its body.
((namespace_definition name: (_) @name !body) @definition.namespace
 (#set! scope "following"))
(namespace_definition name: (_) @name) @definition.namespace

((method_declaration name: (name) @name) @definition.method (#set! separator "::"))
((const_declaration (const_element (name) @name)) @definition.constant (#set! separator "::"))
((property_declaration (property_element (variable_name) @name)) @definition.field (#set! separator "::"))
((enum_case name: (name) @name) @definition.enum_member (#set! separator "::"))

(function_definition name: (name) @name) @definition.function
(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum

; The superclass, for the test rule (PHPUnit\Framework\TestCase, Tests\TestCase).
(class_declaration (base_clause [(name) @base (qualified_name (name) @base .)])) @definition.class
