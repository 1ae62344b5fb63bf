; Ruby definitions for the speky scanner (captures: see README.md).
; When several patterns capture the same node, the first one in this file wins.

; Sorbet signatures stand between a comment and its method like decorators: sig { ... }
((call method: (identifier) @_sig block: (_)) @decoration (#eq? @_sig "sig"))
((call method: (identifier) @_sig !block) @decoration (#eq? @_sig "sig"))

; RSpec (and Minitest::Spec) written as calls with a block: describe/context nest,
; it/specify/example... are tests: Suite > title, reported at the call. The title is the
; first argument (a string, or a constant: RSpec.describe Basket); an untitled
; `it { ... }` is named after its method.
((call
   method: (identifier) @_m
   arguments: (argument_list . (_) @name)
   block: [(do_block) (block)]) @definition.suite @anchor
 (#match? @_m "^(describe|context|feature|shared_examples|shared_examples_for|shared_context|xdescribe|xcontext|fdescribe|fcontext)$")
 (#set! separator " > "))
((call
   method: (identifier) @_m
   arguments: (argument_list . (_) @name)
   block: [(do_block) (block)]) @definition.test @anchor
 (#match? @_m "^(it|specify|example|scenario|its|focus|xit|xspecify|xexample|xscenario|fit|fspecify|fexample|fscenario|test)$")
 (#set! separator " > "))
((call
   method: (identifier) @name
   !arguments
   block: [(do_block) (block)]) @definition.test @anchor
 (#match? @name "^(it|specify|example|its|xit|fit)$")
 (#set! separator " > "))

; Methods of classes and modules: Class.method (instance and singleton methods alike).
(class body: (body_statement [(method name: (_) @name) (singleton_method name: (_) @name)] @definition.method))
(module body: (body_statement [(method name: (_) @name) (singleton_method name: (_) @name)] @definition.method))
(singleton_class body: (body_statement (method name: (_) @name) @definition.method))
; private def helper / memoize def slow: the method is the argument of a call.
(class body: (body_statement (call arguments: (argument_list [(method name: (_) @name) (singleton_method name: (_) @name)] @definition.method))))
(module body: (body_statement (call arguments: (argument_list [(method name: (_) @name) (singleton_method name: (_) @name)] @definition.method))))
(method name: (_) @name) @definition.function
(singleton_method name: (_) @name) @definition.function

; class Shop::Basket: the written scopes are qualifiers (Shop.Basket).
(class name: (constant) @name) @definition.class
(class name: (scope_resolution scope: (constant) @qualifier name: (constant) @name)) @definition.class
(class name: (scope_resolution scope: (scope_resolution scope: (constant) @qualifier name: (constant) @qualifier) name: (constant) @name)) @definition.class
(class name: (scope_resolution name: (constant) @name)) @definition.class
(module name: (constant) @name) @definition.module
(module name: (scope_resolution scope: (constant) @qualifier name: (constant) @name)) @definition.module
(module name: (scope_resolution scope: (scope_resolution scope: (constant) @qualifier name: (constant) @qualifier) name: (constant) @name)) @definition.module
(module name: (scope_resolution name: (constant) @name)) @definition.module

; Constants: LIMIT = 3 in a file, class or module body.
(program (assignment left: (constant) @name) @definition.constant)
(body_statement (assignment left: (constant) @name) @definition.constant)

; The superclass as written (Minitest::Test, ActiveSupport::TestCase), for the test rule.
(class superclass: (superclass (_) @base)) @definition.class
